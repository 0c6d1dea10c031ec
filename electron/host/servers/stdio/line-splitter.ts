/** What is known of a line longer than the cap, when it is first detected and when it ends. */
export interface OversizedLine {
  /** The first bytes of the line (up to 256), as text. */
  head: string;
  /** The last bytes of the line (up to 256), as text; empty until the line has ended. */
  tail: string;
  /** Bytes seen so far (the whole line once it has ended). */
  bytes: number;
  /** True once the line's newline has arrived. */
  ended: boolean;
}

export interface LineSplitterHandlers {
  onLine: (line: string) => void;
  /**
   * A line passed the cap: called once when that is detected (`ended` false,
   * unless the whole line arrived in one chunk) and once more when its newline
   * arrives (`ended` true, with its tail and full size). The line itself is dropped.
   */
  onOversized: (line: OversizedLine) => void;
}

const EDGE_BYTES = 256;

/**
 * Splits a byte stream into lines with a hard cap on how much it holds, so a
 * process that writes without newlines cannot grow the host's memory. A line
 * longer than the cap is reported (its head, and later its tail and size) and
 * skipped up to its newline.
 */
export class LineSplitter {
  private chunks: Buffer[] = [];
  private held = 0;
  /** The oversized line being skipped, if any. */
  private skipping: { head: string; bytes: number; tail: Buffer } | undefined;

  constructor(
    private readonly maxLineBytes: number,
    private readonly handlers: LineSplitterHandlers,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, start);
      if (newline === -1) break;
      const piece = chunk.subarray(start, newline);
      start = newline + 1;
      if (this.skipping) {
        this.endSkip(piece);
        continue;
      }
      if (this.held + piece.length > this.maxLineBytes) {
        const head = this.headOf(piece);
        this.reset();
        this.handlers.onOversized({
          head,
          tail: lastBytes(piece).toString('utf8'),
          bytes: this.held + piece.length,
          ended: true,
        });
        continue;
      }
      // The usual case, a whole line in one chunk, needs no copy.
      const bytes = this.chunks.length === 0 ? piece : Buffer.concat([...this.chunks, piece]);
      const text = bytes.toString('utf8');
      const line = text.endsWith('\r') ? text.slice(0, -1) : text;
      this.reset();
      this.handlers.onLine(line);
    }
    if (start >= chunk.length) return;
    const rest = chunk.subarray(start);
    if (this.skipping) {
      this.skipping.bytes += rest.length;
      this.skipping.tail = lastBytes(Buffer.concat([this.skipping.tail, rest]));
      return;
    }
    if (this.held + rest.length > this.maxLineBytes) {
      const head = this.headOf(rest);
      const bytes = this.held + rest.length;
      this.reset();
      this.skipping = { head, bytes, tail: lastBytes(rest) };
      this.handlers.onOversized({ head, tail: '', bytes, ended: false });
      return;
    }
    this.chunks.push(rest);
    this.held += rest.length;
  }

  /** Bytes currently held waiting for a newline. */
  get pendingBytes(): number {
    return this.held;
  }

  /**
   * The start of the unfinished line held so far (at most `max` bytes), e.g. a
   * prompt a program printed without a newline and now waits on.
   */
  peekPending(max = 200): string {
    if (this.held === 0) return '';
    return Buffer.concat(this.chunks).subarray(0, max).toString('utf8');
  }

  private endSkip(piece: Buffer): void {
    const skipped = this.skipping;
    if (!skipped) return;
    this.skipping = undefined;
    const tail = lastBytes(Buffer.concat([skipped.tail, piece])).toString('utf8');
    this.handlers.onOversized({
      head: skipped.head,
      tail,
      bytes: skipped.bytes + piece.length,
      ended: true,
    });
  }

  private headOf(tail: Buffer): string {
    const first = this.chunks[0] ?? tail;
    return first.subarray(0, EDGE_BYTES).toString('utf8');
  }

  private reset(): void {
    this.chunks = [];
    this.held = 0;
  }
}

function lastBytes(buffer: Buffer): Buffer {
  return buffer.length <= EDGE_BYTES ? buffer : buffer.subarray(buffer.length - EDGE_BYTES);
}
