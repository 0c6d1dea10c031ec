/**
 * Collects streamed text and hands it on at most once per interval, so a
 * fast stream costs one event per frame instead of one per token.
 */
export class DeltaBatcher {
  private buffer = '';
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly flushTo: (text: string) => void,
    private readonly intervalMs = 16,
  ) {}

  push(text: string): void {
    this.buffer += text;
    this.timer ??= setTimeout(() => {
      this.flush();
    }, this.intervalMs);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.buffer === '') return;
    const text = this.buffer;
    this.buffer = '';
    this.flushTo(text);
  }

  /** Drops what was not sent (the message was abandoned). */
  discard(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.buffer = '';
  }
}
