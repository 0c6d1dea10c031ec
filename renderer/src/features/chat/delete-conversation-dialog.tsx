import type { ConversationSummary } from '../../../../shared/model/chat.js';
import { useChatActions } from './chat-context.js';
import { ConfirmDialog } from '../../common/confirm-dialog.js';

/** Asks before deleting a conversation; Cancel has the focus. */
export function DeleteConversationDialog({
  summary,
  onClose,
}: {
  summary: ConversationSummary;
  onClose: () => void;
}) {
  const { deleteConversation } = useChatActions();
  return (
    <ConfirmDialog
      title={`Delete “${summary.title || 'Untitled'}”?`}
      description={`The conversation and its ${String(summary.messageCount)} messages are deleted from this computer.`}
      confirmLabel="Delete"
      onConfirm={() => deleteConversation(summary.id)}
      onClose={onClose}
    />
  );
}
