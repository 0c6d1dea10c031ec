/** Messages one app may send per second before the rest are dropped. */
export const MAX_MESSAGES_PER_SECOND = 200;

/**
 * Bounds what one app frame can make the renderer do: messages from `source`
 * beyond the per-second budget are stopped before the bridge's transport
 * sees them (this listener is registered first, so stopImmediatePropagation
 * keeps them from the transport's). `onDropped` hears how many were dropped,
 * at most once a second.
 */
export function guardMessages(source: () => Window | null, onDropped: (count: number) => void): () => void {
  let windowStart = 0;
  let count = 0;
  let dropped = 0;
  let reported = 0;
  const listener = (event: MessageEvent) => {
    const frame = source();
    if (frame === null || event.source !== frame) return;
    const now = performance.now();
    if (now - windowStart >= 1000) {
      windowStart = now;
      count = 0;
    }
    count++;
    if (count <= MAX_MESSAGES_PER_SECOND) return;
    event.stopImmediatePropagation();
    dropped++;
    if (now - reported >= 1000) {
      reported = now;
      onDropped(dropped);
      dropped = 0;
    }
  };
  window.addEventListener('message', listener);
  return () => {
    window.removeEventListener('message', listener);
  };
}
