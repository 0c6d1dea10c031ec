import { useMemo } from 'react';
import { useChat } from '../../store/chat-context.js';
import { streamChunks } from '../../lib/stream-chunks.js';
import { Markdown } from './markdown.js';

/**
 * The answer while it streams. Its text is split into paragraphs; each is a
 * memoized Markdown, so a new frame re-parses only the paragraph being written.
 */
export function StreamingMessage({ id }: { id: string }) {
  const text = useChat((s) => s.details[id]?.streaming?.text ?? '');
  const chunks = useMemo(() => streamChunks(text), [text]);
  return (
    <article
      className="message message--assistant message--streaming"
      aria-label="Claude is writing"
      aria-busy="true"
    >
      <div className="message__author">Claude</div>
      <div className="message__body">
        {chunks.map((chunk, index) => (
          // Index keys: earlier chunks never change while streaming, so their memo holds.
          <Markdown key={index} text={chunk} />
        ))}
        <span className="message__caret" aria-hidden="true" />
      </div>
    </article>
  );
}
