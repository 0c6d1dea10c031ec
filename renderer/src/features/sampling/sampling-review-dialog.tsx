import { useId, useRef, useState } from 'react';
import type { ConsentDialogProps } from '../consent/dialog-props.js';
import { Spinner } from '../../common/spinner.js';
import { ConsentDialogHeader, ConsentFormModal, ServerName } from '../consent/consent-dialog-parts.js';
import { ConsentError } from './consent-error.js';
import { SamplingPartView } from './sampling-parts.js';
import { ConsentButton } from '../consent/consent-guard.js';

type Props = ConsentDialogProps<'samplingReview'>;

const STOP_REASONS: Readonly<Record<string, string>> = {
  endTurn: 'finished',
  maxTokens: 'stopped at the token limit',
  stopSequence: 'stopped at a stop sequence',
  toolUse: 'wants to use tools',
};

/**
 * Claude's answer to a server's sampling request, before the server sees
 * it: the person may edit its text, send it, or reject it (the server then
 * gets the user-rejected error).
 */
export function SamplingReviewDialog({ request, busy, onAnswer }: Props) {
  const headingId = useId();
  const firstRef = useRef<HTMLTextAreaElement>(null);
  const { parts, model, stopReason } = request.prompt;
  const [texts, setTexts] = useState<Readonly<Record<number, string>>>(() =>
    Object.fromEntries(parts.flatMap((p, i) => (p.type === 'text' ? [[i, p.text]] : []))),
  );
  const reject = () => {
    onAnswer({ decision: 'reject' });
  };
  const approve = () => {
    if (busy) return;
    const textEdits = parts.flatMap((p, i) =>
      p.type === 'text' && texts[i] !== undefined && texts[i] !== p.text ? [{ part: i, text: texts[i] }] : [],
    );
    onAnswer({ decision: 'approve', textEdits });
  };
  const firstTextIndex = parts.findIndex((p) => p.type === 'text');

  return (
    <ConsentFormModal headingId={headingId} initialFocus={firstRef} onClose={reject} onSubmit={approve}>
      <ConsentDialogHeader
        eyebrow="Sampling result"
        headingId={headingId}
        title={
          <>
            Review Claude’s answer for <ServerName name={request.server} />
          </>
        }
        subtitle={
          <>
            <code>{model}</code>
            {stopReason !== undefined && ` — ${STOP_REASONS[stopReason] ?? stopReason}`}. The server gets it
            only if you send it.
          </>
        }
      />
      <div className="modal__body">
        <h3 className="consent-section__title">Answer</h3>
        {parts.length === 0 && <p className="modal__text">Claude returned no content.</p>}
        {parts.map((part, i) =>
          part.type === 'text' ? (
            <textarea
              key={i}
              ref={i === firstTextIndex ? firstRef : undefined}
              className="field__control sampling-message__text"
              aria-label={`Answer text ${String(i + 1)}`}
              rows={Math.min(12, Math.max(3, (texts[i] ?? '').split('\n').length + 1))}
              value={texts[i] ?? ''}
              onChange={(event) => {
                setTexts((t) => ({ ...t, [i]: event.target.value }));
              }}
            />
          ) : (
            <SamplingPartView key={i} part={part} />
          ),
        )}
        <ConsentError />
      </div>
      <footer className="modal__footer">
        <ConsentButton type="button" className="btn btn--danger-quiet" onClick={reject} disabled={busy}>
          Reject
        </ConsentButton>
        <ConsentButton type="submit" className="btn btn--primary" disabled={busy}>
          {busy && <Spinner />}
          Send to server
        </ConsentButton>
      </footer>
    </ConsentFormModal>
  );
}
