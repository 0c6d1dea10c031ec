import { useId, useMemo, useRef } from 'react';
import { analyzeUrl } from '../../../../shared/model/elicitation-url.js';
import type { ConsentDialogProps } from '../consent/dialog-props.js';
import { Modal } from '../../common/modal.js';
import { ConsentDialogHeader, ElicitationActions, ServerName } from '../consent/consent-dialog-parts.js';
import { ConsentError } from '../sampling/consent-error.js';
import { ServerText } from '../../common/server-text.js';

type Props = ConsentDialogProps<'elicitationUrl'>;

/**
 * A server asks the person to open a link. Shows the full URL with the
 * domain it really goes to highlighted, and warnings for look-alike host
 * names; the system browser opens only after "Open in browser".
 */
export function ElicitationUrlDialog({ request, busy, onAnswer }: Props) {
  const headingId = useId();
  const messageId = `${headingId}-message`;
  const cancelRef = useRef<HTMLButtonElement>(null);
  const analysis = useMemo(() => analyzeUrl(request.prompt.url), [request.prompt.url]);
  const cancel = () => {
    onAnswer({ action: 'cancel' });
  };

  return (
    <Modal
      labelledBy={headingId}
      describedBy={messageId}
      onClose={cancel}
      initialFocus={cancelRef}
      className="modal--wide consent-dialog"
      consent
    >
      <div className="modal__content">
        <ConsentDialogHeader
          eyebrow="Link request"
          headingId={headingId}
          title={
            <>
              <ServerName name={request.server} /> asks you to open a link
            </>
          }
        />
        <div className="modal__body">
          <p id={messageId} className="consent-dialog__message">
            <ServerText text={request.prompt.message} />
          </p>
          <div className="url-box">
            <p className="url-box__site">
              Opens{' '}
              <strong className="url-box__domain">
                {analysis.domain !== '' ? analysis.domain : 'an invalid address'}
              </strong>
              {analysis.punycode && analysis.unicodeHostname !== analysis.hostname && (
                <span className="url-box__looks"> (displayed as “{analysis.unicodeHostname}”)</span>
              )}
            </p>
            <p className="url-box__url" aria-label="Full address">
              {analysis.parts.before}
              {analysis.parts.domain !== '' && <mark>{analysis.parts.domain}</mark>}
              {analysis.parts.after}
            </p>
          </div>
          {analysis.warnings.length > 0 && (
            <ul className="consent-warning" aria-label="Warnings">
              {analysis.warnings.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          )}
          <p className="consent-dialog__note">
            The link opens in your web browser. Check the highlighted domain before you continue.
          </p>
          <ConsentError />
        </div>
        <ElicitationActions
          busy={busy}
          cancelRef={cancelRef}
          onCancel={cancel}
          onDecline={() => {
            onAnswer({ action: 'decline' });
          }}
          accept={{
            label: 'Open in browser',
            disabled: !analysis.openable,
            onClick: () => {
              onAnswer({ action: 'accept' });
            },
          }}
        />
      </div>
    </Modal>
  );
}
