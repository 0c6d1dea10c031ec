/**
 * Splits a byte stream into lines with a hard cap on how much it holds, so a
 * process that writes without newlines cannot grow the host's memory. A line
 * longer than the cap is reported as oversized and skipped up to its newline.
 */
export class LineSplitter {
  private chunks: Buffer[] = [];
  private held = 0;
  private skipping = false;

  constructor(
    private readonly maxLineBytes: number,
    private readonly onLine: (line: string) => void,
    private readonly onOversized: (preview: string) => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, start);
      if (newline === -1) break;
      const piece = chunk.subarray(start, newline);
      start = newline + 1;
      if (this.skipping) {
        this.skipping = false;
        this.reset();
        continue;
      }
      if (this.held + piece.length > this.maxLineBytes) {
        this.oversized(piece);
        this.reset();
        continue;
      }
      // The usual case, a whole line in one chunk, needs no copy.
      const bytes = this.chunks.length === 0 ? piece : Buffer.concat([...this.chunks, piece]);
      const text = bytes.toString('utf8');
      const line = text.endsWith('\r') ? text.slice(0, -1) : text;
      this.reset();
      this.onLine(line);
    }
    if (start >= chunk.length || this.skipping) return;
    const rest = chunk.subarray(start);
    if (this.held + rest.length > this.maxLineBytes) {
      this.oversized(rest);
      this.reset();
      this.skipping = true;
      return;
    }
    this.chunks.push(rest);
    this.held += rest.length;
  }

  /** Bytes currently held waiting for a newline. */
  get pendingBytes(): number {
    return this.held;
  }

  private oversized(tail: Buffer): void {
    const head = this.chunks[0] ?? tail;
    this.onOversized(head.subarray(0, 120).toString('utf8'));
  }

  private reset(): void {
    this.chunks = [];
    this.held = 0;
  }
}
