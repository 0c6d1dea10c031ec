import type { LogEntry, LogLevel, ServerLogs as ServerLogsValue } from '../../../shared/model/logs.js';
import type { HostEventSink } from '../ipc/handlers.js';

/** A log line before the buffer numbers and stamps it. */
export type NewLogEntry = Omit<LogEntry, 'seq' | 'time'>;

export interface ServerLogOptions {
  /** Entries kept per server; the oldest go first. Default 5 000. */
  maxEntries?: number;
  /** Longest text kept per entry, in characters; longer text is cut with "…". Default 8 192. */
  maxLineChars?: number;
}

/** A bounded ring buffer of one server's log. */
export class ServerLog {
  private readonly ring: (LogEntry | undefined)[];
  private start = 0;
  private size = 0;
  private nextSeq = 1;
  /** The level last set with logging/setLevel on the current connection. */
  level: LogLevel | undefined;

  constructor(
    readonly maxEntries: number,
    private readonly maxLineChars: number,
  ) {
    this.ring = new Array<LogEntry | undefined>(maxEntries);
  }

  append(entry: NewLogEntry, now = Date.now()): LogEntry {
    const text =
      entry.text.length > this.maxLineChars ? `${entry.text.slice(0, this.maxLineChars - 1)}…` : entry.text;
    const logger = entry.logger !== undefined ? entry.logger.slice(0, 256) : undefined;
    const stored: LogEntry = {
      seq: this.nextSeq++,
      time: now,
      source: entry.source,
      level: entry.level,
      ...(logger !== undefined ? { logger } : {}),
      text,
    };
    this.ring[(this.start + this.size) % this.maxEntries] = stored;
    if (this.size < this.maxEntries) this.size++;
    else this.start = (this.start + 1) % this.maxEntries;
    return stored;
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

  get length(): number {
    return this.size;
  }
}

/**
 * The logs of every server. New entries reach the renderer in batches (one
 * `serverLog` event per server per flush) so a chatty server cannot flood
 * the IPC pipe with one message per line.
 */
export class ServerLogs {
  private readonly logs = new Map<string, ServerLog>();
  private pending = new Map<string, LogEntry[]>();
  private timer: NodeJS.Timeout | undefined;
  private readonly maxEntries: number;
  private readonly maxLineChars: number;

  constructor(
    private readonly emit: HostEventSink,
    options: ServerLogOptions & { flushMs?: number } = {},
  ) {
    this.maxEntries = options.maxEntries ?? 5000;
    this.maxLineChars = options.maxLineChars ?? 8192;
    this.flushMs = options.flushMs ?? 100;
  }

  private readonly flushMs: number;

  of(server: string): ServerLog {
    let log = this.logs.get(server);
    if (!log) {
      log = new ServerLog(this.maxEntries, this.maxLineChars);
      this.logs.set(server, log);
    }
    return log;
  }

  append(server: string, entry: NewLogEntry): void {
    const stored = this.of(server).append(entry);
    const batch = this.pending.get(server);
    if (batch) {
      batch.push(stored);
      // Never hold more than the buffer itself would keep.
      if (batch.length > this.maxEntries) batch.splice(0, batch.length - this.maxEntries);
    } else this.pending.set(server, [stored]);
    if (!this.timer) {
      this.timer = setTimeout(() => {
        this.flush();
      }, this.flushMs);
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
    this.pending.delete(server);
  }

  /** Sends what is pending now. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const pending = this.pending;
    this.pending = new Map();
    for (const [server, entries] of pending) this.emit('serverLog', { server, entries });
  }

  dispose(): void {
    this.flush();
  }
}
