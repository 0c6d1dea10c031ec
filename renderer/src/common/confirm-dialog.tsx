import { useId, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import type { HostErrorValue, Result } from '../../../shared/ipc/result.js';
import { Modal } from './modal.js';
import { Spinner } from './spinner.js';

/**
 * Asks before a destructive action. Cancel has the focus, so Enter is never
 * destructive; while the host works the button is busy, and a refusal stays
 * in the dialog as one line.
 */
export function ConfirmDialog({
  title,
  description,
  confirmLabel,
  cancelLabel = 'Cancel',
  onConfirm,
  onClose,
}: {
  title: ReactNode;
  description: ReactNode;
  confirmLabel: string;
  /** The safe choice, which has the focus. */
  cancelLabel?: string;
  onConfirm: () => Promise<Result<unknown>>;
  onClose: () => void;
}) {
  const headingId = useId();
  const descriptionId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<HostErrorValue>();

  const confirm = async () => {
    setBusy(true);
    const result = await onConfirm();
    setBusy(false);
    if (result.ok) onClose();
    else setError(result.error);
  };

  return (
    <Modal
      labelledBy={headingId}
      describedBy={descriptionId}
      onClose={onClose}
      initialFocus={cancelRef}
      role="alertdialog"
    >
      <div className="modal__content">
        <header className="modal__header">
          <h2 id={headingId}>{title}</h2>
        </header>
        <div className="modal__body">
          <p id={descriptionId} className="modal__text">
            {description}
          </p>
          {error && (
            <div className="inline-alert" role="alert">
              {error.message}
            </div>
          )}
        </div>
        <footer className="modal__footer">
          <button ref={cancelRef} type="button" className="btn" onClick={onClose}>
            {cancelLabel}
          </button>
          <button
            type="button"
            className="btn btn--danger"
            disabled={busy}
            onClick={() => {
              void confirm();
            }}
          >
            {busy && <Spinner />}
            {confirmLabel}
          </button>
        </footer>
      </div>
    </Modal>
  );
}
