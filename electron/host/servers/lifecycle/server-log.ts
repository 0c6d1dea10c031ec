import { ellipsize } from '../../text.js';
import type { LogEntry, LogLevel, ServerLogs as ServerLogsValue } from '../../../../shared/model/logs.js';
import type { HostEventSink } from '../../ipc/handlers.js';

/** A log line before the buffer numbers and stamps it. */
export type NewLogEntry = Omit<LogEntry, 'seq' | 'time'>;

/** Characters of log text sent to the renderer per server per batch; a flood sends its newest lines. */
export const FLUSH_BUDGET_CHARS = 32 * 1024;
/** After a batch over budget, the next waits this long: a flood reaches the renderer once a second. */
export const FLOOD_FLUSH_MS = 1000;

export interface ServerLogOptions {
  /** Entries kept per server; the oldest go first. Default 5 000. */
  maxEntries?: number;
  /** Longest text kept per entry, in characters; longer text is cut with "…". Default 8 192. */
  maxLineChars?: number;
  /** Characters kept per server across all entries; the oldest go first. Default 1 000 000. */
  maxTotalChars?: number;
}

/** A bounded ring buffer of one server's log. */
export class ServerLog {
  private readonly ring: (LogEntry | undefined)[];
  private start = 0;
  private size = 0;
  private nextSeq = 1;
  private totalChars = 0;
  /** The level last set with logging/setLevel on the current connection. */
  level: LogLevel | undefined;

  constructor(
    readonly maxEntries: number,
    private readonly maxLineChars: number,
    private readonly maxTotalChars = 1_000_000,
  ) {
    this.ring = new Array<LogEntry | undefined>(maxEntries);
  }

  append(entry: NewLogEntry, now = Date.now()): LogEntry {
    // A cut line is copied (not sliced) so it does not keep the whole original string alive.
    const text =
      entry.text.length > this.maxLineChars
        ? Buffer.from(ellipsize(entry.text, this.maxLineChars)).toString()
        : entry.text;
    const logger = entry.logger !== undefined ? entry.logger.slice(0, 256) : undefined;
    const stored: LogEntry = {
      seq: this.nextSeq++,
      time: now,
      source: entry.source,
      level: entry.level,
      ...(logger !== undefined ? { logger } : {}),
      text,
    };
    if (this.size === this.maxEntries) this.dropOldest();
    this.ring[(this.start + this.size) % this.maxEntries] = stored;
    this.size++;
    this.totalChars += text.length;
    while (this.totalChars > this.maxTotalChars && this.size > 1) this.dropOldest();
    return stored;
  }

  private dropOldest(): void {
    const oldest = this.ring[this.start];
    this.totalChars -= oldest?.text.length ?? 0;
    this.ring[this.start] = undefined;
    this.start = (this.start + 1) % this.maxEntries;
    this.size--;
  }

  /** Every kept entry, oldest first. */
  entries(): LogEntry[] {
    const out: LogEntry[] = [];
    for (let n = 0; n < this.size; n++) {
      const entry = this.ring[(this.start + n) % this.maxEntries];
      if (entry) out.push(entry);
    }
    return out;
  }

  /** Kept entries newer than `seq`, oldest first. */
  entriesAfter(seq: number): LogEntry[] {
    const out: LogEntry[] = [];
    for (let n = this.size - 1; n >= 0; n--) {
      const entry = this.ring[(this.start + n) % this.maxEntries];
      if (!entry || entry.seq <= seq) break;
      out.push(entry);
    }
    return out.reverse();
  }

  get length(): number {
    return this.size;
  }
}

/**
 * The logs of every server. New entries reach the renderer in batches (one
 * `serverLog` event per server per flush) so a chatty server cannot flood
 * the IPC pipe with one message per line. A batch carries at most
 * FLUSH_BUDGET_CHARS of text (the newest lines, with the count of those left
 * out), and after such a batch the next waits FLOOD_FLUSH_MS: a flooding
 * server costs the renderer about 32 KB a second, while its whole bounded log
 * stays here for getServerLogs.
 */
export class ServerLogs {
  private readonly logs = new Map<string, ServerLog>();
  /** Servers with entries not yet sent, and the last sequence number sent for each. */
  private dirty = new Set<string>();
  private readonly sentUpTo = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private readonly maxEntries: number;
  private readonly maxLineChars: number;
  private readonly maxTotalChars: number | undefined;

  constructor(
    private readonly emit: HostEventSink,
    options: ServerLogOptions & { flushMs?: number; budgetChars?: number; floodFlushMs?: number } = {},
  ) {
    this.maxEntries = options.maxEntries ?? 5000;
    this.maxLineChars = options.maxLineChars ?? 8192;
    this.maxTotalChars = options.maxTotalChars;
    this.flushMs = options.flushMs ?? 100;
    this.budgetChars = options.budgetChars ?? FLUSH_BUDGET_CHARS;
    this.floodFlushMs = options.floodFlushMs ?? FLOOD_FLUSH_MS;
  }

  private readonly flushMs: number;
  private readonly budgetChars: number;
  private readonly floodFlushMs: number;
  /** Whether the last flush had to leave lines out (a flood): the next one waits longer. */
  private flooded = false;

  of(server: string): ServerLog {
    let log = this.logs.get(server);
    if (!log) {
      log = new ServerLog(this.maxEntries, this.maxLineChars, this.maxTotalChars);
      this.logs.set(server, log);
    }
    return log;
  }

  append(server: string, entry: NewLogEntry): void {
    // Pending entries are read back from the ring at flush time, so a flood
    // between flushes costs no memory beyond the ring's own bound.
    this.of(server).append(entry);
    this.dirty.add(server);
    if (!this.timer) {
      this.timer = setTimeout(
        () => {
          this.flush();
        },
        this.flooded ? this.floodFlushMs : this.flushMs,
      );
      // Pending log lines never keep a CLI process alive.
      this.timer.unref();
    }
  }

  snapshot(server: string): ServerLogsValue {
    const log = this.logs.get(server);
    return { entries: log?.entries() ?? [], ...(log?.level !== undefined ? { level: log.level } : {}) };
  }

  /** Forgets a removed server's log. */
  delete(server: string): void {
    this.logs.delete(server);
    this.dirty.delete(server);
    this.sentUpTo.delete(server);
  }

  /** Sends what is pending now. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const dirty = this.dirty;
    this.dirty = new Set();
    let flooded = false;
    for (const server of dirty) {
      const log = this.logs.get(server);
      if (!log) continue;
      const pending = log.entriesAfter(this.sentUpTo.get(server) ?? 0);
      const last = pending.at(-1);
      if (!last) continue;
      const entries = newestWithin(pending, this.budgetChars);
      // Counted by sequence number, so lines that fell out of the ring before this flush count too.
      const skipped = last.seq - (this.sentUpTo.get(server) ?? 0) - entries.length;
      this.sentUpTo.set(server, last.seq);
      flooded ||= skipped > 0;
      this.emit('serverLog', { server, entries, ...(skipped > 0 ? { skipped } : {}) });
    }
    this.flooded = flooded;
  }

  dispose(): void {
    this.flush();
  }
}

/** The newest entries whose text fits in `budget` characters (at least one). */
function newestWithin(entries: readonly LogEntry[], budget: number): LogEntry[] {
  let used = 0;
  let first = entries.length;
  while (first > 0) {
    const size = entries[first - 1]?.text.length ?? 0;
    if (first < entries.length && used + size > budget) break;
    used += size;
    first--;
  }
  return entries.slice(first);
}
