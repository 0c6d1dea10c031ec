import { atLeast } from '../../../../shared/model/logs.js';
import type { LogEntry, LogLevel, LogSource } from '../../../../shared/model/logs.js';

export interface LogFilter {
  /** Show entries at this level or more severe; undefined shows all. */
  readonly minLevel: LogLevel | undefined;
  readonly source: LogSource | undefined;
  /** Case-insensitive text search over the line, its logger and level. */
  readonly search: string;
}

export const NO_FILTER: LogFilter = { minLevel: undefined, source: undefined, search: '' };

export function filterLog(entries: readonly LogEntry[], filter: LogFilter): LogEntry[] {
  const needle = filter.search.trim().toLowerCase();
  return entries.filter(
    (e) =>
      (filter.minLevel === undefined || atLeast(e.level, filter.minLevel)) &&
      (filter.source === undefined || e.source === filter.source) &&
      (needle === '' || `${e.text} ${e.logger ?? ''} ${e.level}`.toLowerCase().includes(needle)),
  );
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** "14:03:07.123" in local time. */
export function formatTime(time: number): string {
  const d = new Date(time);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

export const SOURCE_LABELS: Readonly<Record<LogSource, string>> = {
  stderr: 'stderr',
  server: 'server',
  host: 'host',
  launcher: 'launcher',
  stdout: 'stdout',
};

/** One line of text per entry, as copied to the clipboard. */
export function formatLines(entries: readonly LogEntry[]): string {
  return entries
    .map((e) => {
      const logger = e.logger !== undefined ? ` [${e.logger}]` : '';
      return `${new Date(e.time).toISOString()} ${e.level.toUpperCase()} ${SOURCE_LABELS[e.source]}${logger} ${e.text}`;
    })
    .join('\n');
}
