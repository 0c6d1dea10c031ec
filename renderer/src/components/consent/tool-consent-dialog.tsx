import { useId, useRef, useState } from 'react';
import { Modal } from '../common/modal.js';
import type { ConsentDialogProps } from './consent-queue.js';
import { AnnotationHints } from './annotation-hints.js';
import { ServerText } from '../common/server-text.js';

/**
 * Asks before Claude calls a tool: which server, which tool, with which
 * arguments. Not closable by clicking outside; Esc denies (doing nothing
 * must never run a tool), and Deny has the focus so a stray Enter denies too.
 */
export function ToolConsentDialog({ request, onAnswer, queued }: ConsentDialogProps<'tool'>) {
  const headingId = useId();
  const descriptionId = useId();
  const denyRef = useRef<HTMLButtonElement>(null);
  const [answered, setAnswered] = useState(false);
  const { server, prompt } = request;

  const decide = (decision: 'allow-once' | 'always-allow' | 'deny') => {
    if (answered) return;
    setAnswered(true);
    onAnswer({ decision });
  };

  return (
    <Modal
      labelledBy={headingId}
      describedBy={descriptionId}
      onClose={() => {
        decide('deny');
      }}
      initialFocus={denyRef}
      closeOnBackdrop={false}
      className="consent"
    >
      <div className="modal__content">
        <header className="modal__header">
          <p className="consent__eyebrow">Tool call · needs your approval</p>
          <h2 id={headingId}>
            Allow Claude to run{' '}
            <code className="consent__tool">
              <ServerText text={prompt.tool} />
            </code>
            ?
          </h2>
          <p id={descriptionId} className="modal__subtitle">
            {prompt.title !== undefined && prompt.title !== prompt.tool && (
              <>
                <ServerText text={prompt.title} /> ·{' '}
              </>
            )}
            on server <strong className="consent__server">{server}</strong>
          </p>
        </header>
        <div className="modal__body">
          {prompt.description !== undefined && prompt.description.trim() !== '' && (
            <p className="consent__description">
              <ServerText text={prompt.description} />
            </p>
          )}
          <AnnotationHints annotations={prompt.annotations} />
          <section className="consent__arguments" aria-label="Arguments">
            <h3 className="consent__label">Arguments</h3>
            {/* tabIndex: the block scrolls, so it must be reachable with the keyboard. */}
            <pre className="code-block consent__json" tabIndex={0}>
              <ServerText text={prompt.argumentsJson} />
            </pre>
          </section>
        </div>
        <footer className="modal__footer consent__footer">
          <span className="consent__keys">Esc denies{queued > 0 ? ` · ${queued} more waiting` : ''}</span>
          <button
            ref={denyRef}
            type="button"
            className="btn"
            disabled={answered}
            onClick={() => {
              decide('deny');
            }}
          >
            Deny
          </button>
          <button
            type="button"
            className="btn"
            disabled={answered}
            onClick={() => {
              decide('always-allow');
            }}
          >
            Always allow this tool on {server}
          </button>
          <button
            type="button"
            className="btn btn--primary"
            disabled={answered}
            onClick={() => {
              decide('allow-once');
            }}
          >
            Allow once
          </button>
        </footer>
      </div>
    </Modal>
  );
}
