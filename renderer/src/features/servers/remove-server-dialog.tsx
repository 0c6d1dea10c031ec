import { useActions } from '../../store/store-context.js';
import { ConfirmDialog } from '../../common/confirm-dialog.js';

/** Asks before removing a server; Cancel has the focus so Enter is never destructive. */
export function RemoveServerDialog({ name, onClose }: { name: string; onClose: () => void }) {
  const { removeServer } = useActions();
  return (
    <ConfirmDialog
      title={`Remove “${name}”?`}
      description="The server is stopped and removed from your configuration file. You can add it again later."
      confirmLabel="Remove server"
      onConfirm={() => removeServer(name)}
      onClose={onClose}
    />
  );
}
