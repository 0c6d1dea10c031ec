import type { PromptMessageChatBlock, ResourceContextChatBlock } from '../../../../shared/model/chat.js';

const safeImage = (mimeType: string): boolean => /^image\/(png|jpeg|gif|webp)$/.test(mimeType);

/**
 * A resource or prompt message that went with a user message, in the
 * history: what it was and where from, folded; open it to see what Claude
 * was given.
 */
export function SentContext({ block }: { block: ResourceContextChatBlock | PromptMessageChatBlock }) {
  const chars = block.content.reduce((n, part) => n + (part.type === 'text' ? part.text.length : 0), 0);
  const images = block.content.filter((part) => part.type === 'image').length;
  const size = [
    chars > 0 ? `${chars.toLocaleString()} characters` : '',
    images > 0 ? `${String(images)} ${images === 1 ? 'image' : 'images'}` : '',
  ]
    .filter((s) => s !== '')
    .join(', ');
  return (
    <details className="sent-context">
      <summary>
        {block.type === 'resource_context' ? (
          <>
            <span className="sent-context__kind">Attached</span>
            <span className="mono sent-context__name">{block.uri}</span>
            <span className="sent-context__meta">
              {block.server}
              {size !== '' ? ` · ${size}` : ''}
            </span>
          </>
        ) : (
          <>
            <span className="sent-context__kind">
              Prompt{block.role === 'assistant' ? ' (assistant)' : ''}
            </span>
            <span className="mono sent-context__name">/{block.prompt}</span>
            <span className="sent-context__meta">
              {block.server}
              {size !== '' ? ` · ${size}` : ''}
            </span>
          </>
        )}
      </summary>
      <div className="sent-context__body">
        {block.content.map((part, index) =>
          part.type === 'text' ? (
            <pre key={index} className="sent-context__text">
              {part.text}
            </pre>
          ) : safeImage(part.mimeType) ? (
            <img
              key={index}
              className="message__image"
              src={`data:${part.mimeType};base64,${part.data}`}
              alt={block.type === 'resource_context' ? `Attached ${block.uri}` : 'Image from the prompt'}
            />
          ) : null,
        )}
      </div>
    </details>
  );
}
