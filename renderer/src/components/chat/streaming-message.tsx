import { useChat } from '../../store/chat-context.js';
import { Markdown } from './markdown.js';
import { ThinkingBlock } from './thinking-block.js';

/**
 * The answer while it streams. Markdown renders it paragraph by paragraph
 * from a cache, so a new frame parses only the paragraph being written.
 */
export function StreamingMessage({ id }: { id: string }) {
  const text = useChat((s) => s.details[id]?.streaming?.text ?? '');
  const thinking = useChat((s) => s.details[id]?.streaming?.thinking ?? '');
  return (
    <article
      className="message message--assistant message--streaming"
      aria-label="Claude is writing"
      aria-busy="true"
    >
      <div className="message__author">Claude</div>
      <div className="message__body">
        {thinking !== '' && <ThinkingBlock text={thinking} streaming={text === ''} />}
        <Markdown text={text} />
        <span className="message__caret" aria-hidden="true" />
      </div>
    </article>
  );
}
