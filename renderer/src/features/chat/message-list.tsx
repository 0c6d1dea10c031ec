import { useVirtualizer } from '@tanstack/react-virtual';
import { useLayoutEffect, useMemo, useRef } from 'react';
import type { ReactNode } from 'react';
import { useChat } from './chat-context.js';
import { chatRows } from './chat-rows.js';
import { MessageRow } from './message-row.js';
import { StreamingMessage } from './streaming-message.js';

/** How close to the bottom (px) still counts as "at the bottom". */
const STICK_THRESHOLD = 48;

/**
 * The messages of a conversation, virtualized: only the rows on screen (and
 * a few around) are in the DOM, each measured after it renders, so a
 * 5,000-message conversation opens as fast as a short one. While the person
 * is at the bottom it follows new text; once they scroll up it stays put.
 */
export function MessageList({ id, footer, running }: { id: string; footer: ReactNode; running: boolean }) {
  const messages = useChat((s) => s.details[id]?.messages);
  const streamingId = useChat((s) => s.details[id]?.streaming?.messageId);
  const streamingLength = useChat((s) => s.details[id]?.streaming?.text.length ?? 0);
  const { rows, results, turnUsage } = useMemo(() => chatRows(messages ?? []), [messages]);
  // The answer to the last user message, if it has one: that is what Regenerate redoes.
  const lastAnswerId = useMemo(() => {
    const last = rows.findLast((m) => m.role === 'assistant' || m.role === 'user');
    return last?.role === 'assistant' ? last.id : undefined;
  }, [rows]);
  const scrollerRef = useRef<HTMLDivElement>(null);
  const stickRef = useRef(true);
  const count = rows.length + (streamingId !== undefined ? 1 : 0);

  // The virtualizer re-renders this component itself; nothing here relies on the React Compiler.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollerRef.current,
    estimateSize: () => 96,
    overscan: 4,
    getItemKey: (index) => rows[index]?.id ?? `streaming:${streamingId ?? ''}`,
  });
  const totalSize = virtualizer.getTotalSize();

  // Follow the bottom when the content grows (new rows, streamed text, rows
  // measured taller than estimated), unless the person scrolled away.
  useLayoutEffect(() => {
    const scroller = scrollerRef.current;
    if (scroller && stickRef.current) scroller.scrollTop = scroller.scrollHeight;
  }, [count, streamingLength, totalSize]);

  return (
    <div
      ref={scrollerRef}
      className="conversation__scroller"
      // Only the person unsticks the view (wheel, keys, scrollbar, touch): the
      // virtualizer's own scroll corrections while rows are measured must not.
      onWheel={(event) => {
        if (event.deltaY < 0) stickRef.current = false;
      }}
      onKeyDown={(event) => {
        if (['ArrowUp', 'PageUp', 'Home'].includes(event.key)) stickRef.current = false;
      }}
      onPointerDown={(event) => {
        // A press on the scroller itself (not on a message) is on its scrollbar.
        if (event.target === event.currentTarget) stickRef.current = false;
      }}
      onTouchMove={() => {
        stickRef.current = false;
      }}
      onScroll={(event) => {
        // Back at the bottom, by any means: follow new text again.
        const el = event.currentTarget;
        if (el.scrollHeight - el.scrollTop - el.clientHeight < STICK_THRESHOLD) stickRef.current = true;
      }}
    >
      <div className="messages" role="log" aria-label="Messages" aria-live="off">
        <div className="messages__inner" style={{ height: totalSize }}>
          {virtualizer.getVirtualItems().map((item) => {
            const message = rows[item.index];
            return (
              <div
                key={item.key}
                data-index={item.index}
                ref={virtualizer.measureElement}
                className="messages__row"
                style={{ transform: `translateY(${item.start}px)` }}
              >
                {message ? (
                  <MessageRow
                    message={message}
                    results={results}
                    turnUsage={turnUsage.get(message.id)}
                    lastAnswer={message.id === lastAnswerId}
                    running={running}
                  />
                ) : (
                  <StreamingMessage id={id} />
                )}
              </div>
            );
          })}
        </div>
      </div>
      {footer}
    </div>
  );
}
