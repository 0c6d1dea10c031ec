import { ServerFormDialog } from './server-form-dialog.js';

/** The "Add server" dialog: the shared server form (config/server-form-dialog.tsx) in add mode. */
export function AddServerDialog({ onClose }: { onClose: () => void }) {
  return <ServerFormDialog onClose={onClose} />;
}
