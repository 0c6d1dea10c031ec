import { useId, useRef } from 'react';
import type { ConsentDialogProps } from './dialog-props.js';
import { Modal } from '../../common/modal.js';
import { Spinner } from '../../common/spinner.js';
import { ConsentDialogHeader, ServerName } from './consent-dialog-parts.js';
import { ConsentButton } from './consent-guard.js';
import { ServerText } from '../../common/server-text.js';

type Props = ConsentDialogProps<'network'>;

/**
 * A sandboxed server tries to reach a host it was not allowed; its
 * connection waits for this answer. Deny has the focus (and Esc denies);
 * "Always" writes the host into the server's allowed hosts.
 */
export function NetworkConsentDialog({ request, busy, queued, onAnswer }: Props) {
  const headingId = useId();
  const messageId = `${headingId}-message`;
  const denyRef = useRef<HTMLButtonElement>(null);
  const { host, port, via, alwaysEntry } = request.prompt;
  const deny = () => {
    onAnswer({ decision: 'deny' });
  };

  return (
    <Modal
      labelledBy={headingId}
      describedBy={messageId}
      onClose={deny}
      initialFocus={denyRef}
      className="consent-dialog"
      consent
    >
      <div className="modal__content">
        <ConsentDialogHeader
          eyebrow="Network access"
          headingId={headingId}
          title={
            <>
              <ServerName name={request.server} /> wants to connect to{' '}
              <span className="mono">
                <ServerText text={`${host}:${String(port)}`} />
              </span>
            </>
          }
          subtitle={queued > 0 ? `${String(queued)} more waiting` : undefined}
        />
        <div className="modal__body">
          <p id={messageId} className="consent-dialog__message">
            The server runs in the sandbox and has not been allowed this host
            {via === 'http' ? ' (plain HTTP, not encrypted)' : ''}. Its connection waits for your answer.
          </p>
          <p className="consent-dialog__note">
            {alwaysEntry !== undefined ? (
              <>
                “Always” adds <span className="mono">{alwaysEntry}</span> to this server’s allowed hosts
                (Settings).
              </>
            ) : (
              <>This address cannot be saved as an allowed host: “Always” lasts until the server stops.</>
            )}
          </p>
        </div>
        <footer className="modal__footer">
          <button
            ref={denyRef}
            type="button"
            className="btn btn--danger-quiet"
            onClick={deny}
            disabled={busy}
          >
            Deny
          </button>
          <ConsentButton
            type="button"
            className="btn"
            disabled={busy}
            onClick={() => {
              onAnswer({ decision: 'always' });
            }}
          >
            Always for this server
          </ConsentButton>
          <ConsentButton
            type="button"
            className="btn btn--primary"
            disabled={busy}
            onClick={() => {
              onAnswer({ decision: 'allow-once' });
            }}
          >
            {busy && <Spinner />}
            Allow once
          </ConsentButton>
        </footer>
      </div>
    </Modal>
  );
}
