/** Schedules one callback before the next paint; returns nothing to cancel (flushes are idempotent). */
export type FrameScheduler = (callback: () => void) => void;

const nextFrame: FrameScheduler = (callback) => {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(callback);
  else setTimeout(callback, 16);
};

/**
 * Collects items (streamed text deltas) and hands them over at most once per
 * animation frame, so a burst of events costs one store update and one render
 * instead of one per event.
 */
export function createFrameBatcher<T>(
  flush: (items: T[]) => void,
  schedule: FrameScheduler = nextFrame,
): { push(item: T): void; flushNow(): void } {
  let pending: T[] = [];
  let scheduled = false;
  const run = (): void => {
    scheduled = false;
    if (pending.length === 0) return;
    const items = pending;
    pending = [];
    flush(items);
  };
  return {
    push(item) {
      pending.push(item);
      if (!scheduled) {
        scheduled = true;
        schedule(run);
      }
    },
    /** Applies what is pending now (before a committed message replaces the streamed text). */
    flushNow: run,
  };
}
