import { useId, useRef, useState } from 'react';
import type { HostErrorValue } from '../../../../shared/ipc/result.js';
import { useActions } from '../../store/store-context.js';
import { Modal } from '../common/modal.js';
import { Spinner } from '../common/spinner.js';

/** Asks before removing a server; Cancel has the focus so Enter is never destructive. */
export function RemoveServerDialog({ name, onClose }: { name: string; onClose: () => void }) {
  const headingId = useId();
  const descriptionId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  const { removeServer } = useActions();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<HostErrorValue>();

  const remove = async () => {
    setBusy(true);
    const result = await removeServer(name);
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
          <h2 id={headingId}>Remove “{name}”?</h2>
        </header>
        <div className="modal__body">
          <p id={descriptionId} className="modal__text">
            The server is stopped and removed from your configuration file. You can add it again later.
          </p>
          {error && (
            <div className="inline-alert" role="alert">
              {error.message}
            </div>
          )}
        </div>
        <footer className="modal__footer">
          <button ref={cancelRef} type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button
            type="button"
            className="btn btn--danger"
            disabled={busy}
            onClick={() => {
              void remove();
            }}
          >
            {busy && <Spinner />}
            Remove server
          </button>
        </footer>
      </div>
    </Modal>
  );
}
