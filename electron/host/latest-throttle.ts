/**
 * Passes on at most one value per interval, always the latest: a server that
 * reports progress thousands of times a second reaches the renderer ten times
 * a second, showing the same final state. The first value goes at once.
 */
export class LatestThrottle<T> {
  private pending: { value: T } | undefined;
  private timer: NodeJS.Timeout | undefined;
  private lastSent = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly send: (value: T) => void,
    private readonly intervalMs = 100,
  ) {}

  push(value: T): void {
    const wait = this.lastSent + this.intervalMs - performance.now();
    if (wait <= 0 && !this.timer) {
      this.emit(value);
      return;
    }
    this.pending = { value };
    this.timer ??= setTimeout(
      () => {
        this.timer = undefined;
        const pending = this.pending;
        this.pending = undefined;
        if (pending) this.emit(pending.value);
      },
      Math.max(0, wait),
    );
  }

  /** Drops a value not sent yet (the call ended: its result supersedes it). */
  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = undefined;
  }

  private emit(value: T): void {
    this.lastSent = performance.now();
    this.send(value);
  }
}
