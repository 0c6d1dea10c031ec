import { useId, useRef, useState } from 'react';
import { Modal } from '../../common/modal.js';
import { describeIdentity } from './consent-rules.js';
import type { ConsentDialogProps } from './dialog-props.js';
import { AnnotationChanges } from './annotation-changes.js';
import { DefinitionChange } from './definition-change.js';
import { AnnotationHints } from './annotation-hints.js';
import { revealInvisible } from '../../../../shared/text/invisible.js';
import { ServerText } from '../../common/server-text.js';
import { ALLOW_LABEL, RememberChoice } from './remember-choice.js';
import type { AllowDecision } from './remember-choice.js';
import { ConsentButton } from './consent-guard.js';

/**
 * Asks before Claude calls a tool: which server (and what it runs), which
 * tool, with which arguments, and for how long an "allow" lasts. Not
 * closable by clicking outside; Esc denies (doing nothing must never run a
 * tool), and Deny has the focus so a stray Enter denies too.
 */
export function ToolConsentDialog({ request, onAnswer, queued }: ConsentDialogProps<'tool'>) {
  const headingId = useId();
  const descriptionId = useId();
  const denyRef = useRef<HTMLButtonElement>(null);
  const [answered, setAnswered] = useState(false);
  const [choice, setChoice] = useState<AllowDecision>('allow-once');
  const { server, prompt } = request;

  const decide = (decision: AllowDecision | 'deny') => {
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
      consent
    >
      <div className="modal__content">
        <header className="modal__header">
          <p className="consent__eyebrow">
            {prompt.requestedByApp ? 'Tool call from an app' : 'Tool call'} · needs your approval
          </p>
          <h2 id={headingId}>
            Allow {prompt.requestedByApp ? 'the app' : 'Claude'} to run{' '}
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
            {prompt.requestedByApp && (
              <>
                {' '}
                · asked by its app{' '}
                <code>
                  <ServerText text={prompt.requestedByApp.resourceUri} />
                </code>
              </>
            )}
          </p>
        </header>
        <div className="modal__body">
          {prompt.definitionChange && <DefinitionChange change={prompt.definitionChange} />}
          {prompt.description !== undefined && prompt.description.trim() !== '' && (
            <p className="consent__description">
              <ServerText text={prompt.description} />
            </p>
          )}
          {prompt.annotationsChanged && (
            <AnnotationChanges before={prompt.annotationsChanged.before} now={prompt.annotations} />
          )}
          <AnnotationHints annotations={prompt.annotations} />
          <section className="consent__arguments" aria-label="Arguments">
            <h3 className="consent__label">Arguments</h3>
            {/* tabIndex: the block scrolls, so it must be reachable with the keyboard. */}
            <pre className="code-block consent__json" tabIndex={0}>
              <ServerText text={prompt.argumentsJson} />
            </pre>
          </section>
          {prompt.identity && (
            <p className="consent__identity">
              {prompt.identity.kind === 'stdio' ? 'The server runs ' : 'The server is at '}
              <code>
                <ServerText text={describeIdentity(prompt.identity)} />
              </code>
            </p>
          )}
          {prompt.definitionChange && (
            <p className="consent__identity">Allowing this call accepts the tool as it is now.</p>
          )}
          {prompt.rulesUnavailable !== undefined ? (
            <p className="consent__no-rules" role="note">
              Only this call can be allowed: {prompt.rulesUnavailable}
            </p>
          ) : (
            <RememberChoice
              server={server}
              tool={revealInvisible(prompt.tool)}
              readOnly={prompt.annotations?.readOnlyHint === true}
              inConversation={prompt.outsideConversation !== true}
              value={choice}
              disabled={answered}
              onChange={setChoice}
            />
          )}
        </div>
        <footer className="modal__footer consent__footer">
          <span className="consent__keys">Esc denies{queued > 0 ? ` · ${queued} more waiting` : ''}</span>
          <ConsentButton
            ref={denyRef}
            type="button"
            className="btn"
            disabled={answered}
            onClick={() => {
              decide('deny');
            }}
          >
            Deny
          </ConsentButton>
          <ConsentButton
            type="button"
            className="btn btn--primary"
            disabled={answered}
            onClick={() => {
              decide(prompt.rulesUnavailable !== undefined ? 'allow-once' : choice);
            }}
          >
            {ALLOW_LABEL[prompt.rulesUnavailable !== undefined ? 'allow-once' : choice]}
          </ConsentButton>
        </footer>
      </div>
    </Modal>
  );
}
