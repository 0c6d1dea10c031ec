import type { Attachment } from '../../../../shared/model/chat.js';
import { promptMessageLabel } from './prompt-insert.js';
import { useAttachments } from './attachments.js';

type PromptMessage = Extract<Attachment, { type: 'prompt-message' }>;

/**
 * What goes with the next message, above the composer's text: the resources
 * attached from the Resources tab (read by the host when the message is
 * sent) and the messages of an inserted prompt. Each chip can be removed.
 */
export function ContextChips(props: {
  promptMessages: readonly PromptMessage[];
  onRemovePrompt: () => void;
  /** Where focus goes after a chip is removed (the last chip's button is gone). */
  onFocusComposer: () => void;
}) {
  const { promptMessages, onRemovePrompt, onFocusComposer } = props;
  const attachments = useAttachments((s) => s.attachments);
  const detach = useAttachments((s) => s.detach);
  const prompt = promptMessages[0];
  if (attachments.length === 0 && !prompt) return null;
  return (
    <ul className="context-chips" aria-label="Attached to your next message">
      {prompt && (
        <li
          className="context-chip context-chip--prompt"
          title={promptMessages.map(promptMessageLabel).join('\n')}
        >
          <span className="context-chip__kind" aria-hidden="true">
            /
          </span>
          <span className="context-chip__label">
            <span className="mono">{prompt.prompt}</span>
            <span className="context-chip__meta">
              {prompt.server} · {promptMessages.length} {promptMessages.length === 1 ? 'message' : 'messages'}
            </span>
          </span>
          <button
            type="button"
            className="context-chip__remove"
            aria-label={`Remove prompt ${prompt.prompt}`}
            onClick={() => {
              onRemovePrompt();
              onFocusComposer();
            }}
          >
            ×
          </button>
        </li>
      )}
      {attachments.map((a) => (
        <li key={a.id} className="context-chip" title={`${a.server} · ${a.uri}`}>
          <span className="context-chip__kind" aria-hidden="true">
            {a.mimeType?.startsWith('image/') === true ? '▣' : '¶'}
          </span>
          <span className="context-chip__label">
            <span>{a.label}</span>
            <span className="context-chip__meta">{a.server}</span>
          </span>
          <button
            type="button"
            className="context-chip__remove"
            aria-label={`Remove ${a.label} (${a.server})`}
            onClick={() => {
              detach(a.id);
              onFocusComposer();
            }}
          >
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
