import { useId, useRef, useState } from 'react';
import { MAX_SAMPLING_TOKENS } from '../../../../shared/model/sampling-consent.js';
import type { SamplingPrompt } from '../../../../shared/model/sampling-consent.js';
import type { ConsentDialogProps } from '../consent/dialog-props.js';
import { Spinner } from '../../common/spinner.js';
import { ConsentDialogHeader, ConsentFormModal, ServerName } from '../consent/consent-dialog-parts.js';
import { ConsentError } from './consent-error.js';
import { SamplingPartView } from './sampling-parts.js';
import { InvisibleWarning } from '../../common/server-text.js';
import { ConsentButton } from '../consent/consent-guard.js';

type Props = ConsentDialogProps<'sampling'>;

const key = (message: number, part: number): string => `${String(message)}:${String(part)}`;

/**
 * A server wants Claude to answer something. Shows who asks, the messages,
 * the system prompt, the token limit and the model preferences; the person
 * may edit the texts, system prompt and limit, then approve or reject.
 * Nothing goes to Claude before "Approve".
 */
export function SamplingDialog({ request, busy, onAnswer }: Props) {
  const headingId = useId();
  const firstRef = useRef<HTMLTextAreaElement>(null);
  const prompt = request.prompt;
  const [texts, setTexts] = useState<Readonly<Record<string, string>>>(() => initialTexts(prompt));
  const [system, setSystem] = useState(prompt.systemPrompt ?? '');
  const [maxTokens, setMaxTokens] = useState(String(Math.min(prompt.maxTokens, MAX_SAMPLING_TOKENS)));
  const [withContext, setWithContext] = useState(false);

  const tokens = Number(maxTokens);
  const tokensError =
    Number.isInteger(tokens) && tokens >= 1 && tokens <= MAX_SAMPLING_TOKENS
      ? undefined
      : `A whole number from 1 to ${String(MAX_SAMPLING_TOKENS)}`;

  const reject = () => {
    onAnswer({ decision: 'reject' });
  };
  const approve = () => {
    if (tokensError !== undefined || busy) return;
    const textEdits = prompt.messages.flatMap((m, mi) =>
      m.parts.flatMap((p, pi) => {
        const edited = texts[key(mi, pi)];
        return p.type === 'text' && edited !== undefined && edited !== p.text
          ? [{ message: mi, part: pi, text: edited }]
          : [];
      }),
    );
    onAnswer({
      decision: 'approve',
      textEdits,
      maxTokens: tokens,
      includeContext: withContext,
      ...(system !== (prompt.systemPrompt ?? '') ? { systemPrompt: system } : {}),
    });
  };

  const firstTextAt = firstTextPart(prompt);
  return (
    <ConsentFormModal headingId={headingId} initialFocus={firstRef} onClose={reject} onSubmit={approve}>
      <ConsentDialogHeader
        eyebrow="Sampling request"
        headingId={headingId}
        title={
          <>
            <ServerName name={request.server} /> wants Claude to answer
          </>
        }
        subtitle="Nothing is sent until you approve. You will see the answer before it goes back to the server."
      />
      <div className="modal__body">
        <ModelSummary prompt={prompt} />

        <section className="consent-section" aria-label="Messages">
          <h3 className="consent-section__title">Messages from the server</h3>
          {prompt.messages.map((message, mi) => (
            <div key={mi} className={`sampling-message sampling-message--${message.role}`}>
              <p className="sampling-message__role">{message.role === 'user' ? 'User' : 'Assistant'}</p>
              {message.parts.map((part, pi) => {
                if (part.type !== 'text') return <SamplingPartView key={pi} part={part} />;
                const ref = firstTextAt === key(mi, pi) ? firstRef : undefined;
                return (
                  <div key={pi}>
                    <InvisibleWarning text={texts[key(mi, pi)] ?? ''} />
                    <textarea
                      ref={ref}
                      className="field__control sampling-message__text"
                      aria-label={`${message.role === 'user' ? 'User' : 'Assistant'} message ${String(mi + 1)}`}
                      rows={Math.min(8, Math.max(2, (texts[key(mi, pi)] ?? '').split('\n').length))}
                      value={texts[key(mi, pi)] ?? ''}
                      onChange={(event) => {
                        setTexts((t) => ({ ...t, [key(mi, pi)]: event.target.value }));
                      }}
                    />
                  </div>
                );
              })}
            </div>
          ))}
        </section>

        <div className="field">
          <label className="field__label" htmlFor={`${headingId}-system`}>
            System prompt
          </label>
          <textarea
            id={`${headingId}-system`}
            className="field__control"
            rows={2}
            placeholder="None"
            value={system}
            onChange={(event) => {
              setSystem(event.target.value);
            }}
          />
          <InvisibleWarning text={system} />
        </div>

        <div className={`field consent-dialog__tokens${tokensError !== undefined ? ' field--invalid' : ''}`}>
          <label className="field__label" htmlFor={`${headingId}-tokens`}>
            Max tokens
          </label>
          <input
            id={`${headingId}-tokens`}
            className="field__control"
            type="number"
            min={1}
            max={MAX_SAMPLING_TOKENS}
            step={1}
            value={maxTokens}
            aria-invalid={tokensError !== undefined ? true : undefined}
            aria-describedby={tokensError !== undefined ? `${headingId}-tokens-error` : undefined}
            onChange={(event) => {
              setMaxTokens(event.target.value);
            }}
          />
          {tokensError !== undefined && (
            <p id={`${headingId}-tokens-error`} className="field__error">
              {tokensError}
            </p>
          )}
        </div>

        <RequestDetails prompt={prompt} />
        {prompt.includeContext !== 'none' && (
          <ContextChoice prompt={prompt} checked={withContext} onChange={setWithContext} />
        )}
        <ConsentError />
      </div>
      <footer className="modal__footer">
        <ConsentButton type="button" className="btn btn--danger-quiet" onClick={reject} disabled={busy}>
          Reject
        </ConsentButton>
        <ConsentButton
          type="submit"
          className="btn btn--primary"
          disabled={busy || tokensError !== undefined}
        >
          {busy && <Spinner />}
          Approve and send to Claude
        </ConsentButton>
      </footer>
    </ConsentFormModal>
  );
}

function firstTextPart(prompt: SamplingPrompt): string | undefined {
  for (const [mi, m] of prompt.messages.entries()) {
    const pi = m.parts.findIndex((p) => p.type === 'text');
    if (pi >= 0) return key(mi, pi);
  }
  return undefined;
}

function initialTexts(prompt: SamplingPrompt): Record<string, string> {
  const texts: Record<string, string> = {};
  prompt.messages.forEach((m, mi) => {
    m.parts.forEach((p, pi) => {
      if (p.type === 'text') texts[key(mi, pi)] = p.text;
    });
  });
  return texts;
}

function ModelSummary({ prompt }: { prompt: SamplingPrompt }) {
  const prefs = prompt.modelPreferences;
  const priorities = prefs
    ? (
        [
          ['cost', prefs.costPriority],
          ['speed', prefs.speedPriority],
          ['intelligence', prefs.intelligencePriority],
        ] as const
      ).filter(([, v]) => v !== undefined)
    : [];
  return (
    <dl className="consent-facts">
      <dt>Model</dt>
      <dd>
        <code>{prompt.model}</code> <span className="consent-facts__note">— {prompt.modelReason}</span>
      </dd>
      {prefs && prefs.hints.length > 0 && (
        <>
          <dt>Hints</dt>
          <dd>{prefs.hints.join(', ')}</dd>
        </>
      )}
      {priorities.length > 0 && (
        <>
          <dt>Priorities</dt>
          <dd>{priorities.map(([name, v]) => `${name} ${String(v)}`).join(' · ')}</dd>
        </>
      )}
    </dl>
  );
}

function RequestDetails({ prompt }: { prompt: SamplingPrompt }) {
  const rows: [string, string][] = [];
  if (prompt.temperature !== undefined) rows.push(['Temperature', String(prompt.temperature)]);
  if (prompt.stopSequences?.length)
    rows.push(['Stop sequences', prompt.stopSequences.map((s) => JSON.stringify(s)).join(', ')]);
  if (prompt.tools.length > 0) {
    rows.push(['Tools offered', prompt.tools.map((t) => t.name).join(', ')]);
    rows.push(['Tool choice', prompt.toolChoice ?? 'auto']);
  }
  if (rows.length === 0) return null;
  return (
    <dl className="consent-facts">
      {rows.map(([name, value]) => (
        <div key={name} className="consent-facts__row">
          <dt>{name}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function ContextChoice(props: { prompt: SamplingPrompt; checked: boolean; onChange: (on: boolean) => void }) {
  const { prompt, checked, onChange } = props;
  const id = useId();
  const preview = prompt.contextPreview;
  return (
    <div className="consent-warning" role="group" aria-labelledby={`${id}-title`}>
      <p id={`${id}-title`} className="consent-warning__title">
        The server asks to include context ({prompt.includeContext})
      </p>
      {prompt.contextNotice !== undefined && <p>{prompt.contextNotice}</p>}
      {preview !== undefined ? (
        <>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={checked}
              onChange={(event) => {
                onChange(event.target.checked);
              }}
            />
            Add this server’s own instructions to the system prompt
          </label>
          <pre className="sampling-part__code">{preview}</pre>
        </>
      ) : (
        <p>
          This server gave no instructions, so there is nothing to add. The chat and other servers are never
          included.
        </p>
      )}
    </div>
  );
}
