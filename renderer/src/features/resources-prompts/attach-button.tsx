import { attachmentId, useAttachments } from '../chat/attachments.js';

/** Puts a resource on the next chat message (the composer shows and sends it), or takes it off. */
export function AttachButton(props: {
  server: string;
  uri: string;
  label: string;
  mimeType?: string | undefined;
}) {
  const id = attachmentId(props.server, props.uri);
  const attached = useAttachments((s) => s.attachments.some((a) => a.id === id));
  const attach = useAttachments((s) => s.attach);
  const detach = useAttachments((s) => s.detach);
  return (
    <button
      type="button"
      className="btn"
      aria-pressed={attached}
      title={attached ? 'Attached to your next chat message' : 'Add this resource to your next chat message'}
      onClick={() => {
        if (attached) detach(id);
        else attach({ server: props.server, uri: props.uri, label: props.label, mimeType: props.mimeType });
      }}
    >
      {attached ? '✓ Attached to chat' : 'Attach to chat'}
    </button>
  );
}
