import { useId, useRef, useState } from 'react';
import type { HostErrorValue } from '../../../../shared/ipc/result.js';
import type { ConversationSummary } from '../../../../shared/model/chat.js';
import { useChatActions } from '../../store/chat-context.js';
import { Modal } from '../common/modal.js';

/** Asks before deleting a conversation; Cancel has the focus. */
export function DeleteConversationDialog({
  summary,
  onClose,
}: {
  summary: ConversationSummary;
  onClose: () => void;
}) {
  const headingId = useId();
  const descriptionId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  const { deleteConversation } = useChatActions();
  const [error, setError] = useState<HostErrorValue>();
  const [busy, setBusy] = useState(false);

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
          <h2 id={headingId}>Delete “{summary.title || 'Untitled'}”?</h2>
        </header>
        <div className="modal__body">
          <p id={descriptionId} className="modal__text">
            The conversation and its {summary.messageCount} messages are deleted from this computer.
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
              setBusy(true);
              void deleteConversation(summary.id).then((result) => {
                setBusy(false);
                if (result.ok) onClose();
                else setError(result.error);
              });
            }}
          >
            Delete
          </button>
        </footer>
      </div>
    </Modal>
  );
}
