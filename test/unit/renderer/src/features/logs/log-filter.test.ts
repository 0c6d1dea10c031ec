import { describe, expect, it } from 'vitest';
import type { LogEntry } from '../../../../../../shared/model/logs.js';
import { mergeEntries, MAX_LOG_ENTRIES } from '../../../../../../renderer/src/features/logs/logs-store.js';
import {
  NO_FILTER,
  filterLog,
  formatLines,
} from '../../../../../../renderer/src/features/logs/log-filter.js';

const entry = (seq: number, over: Partial<LogEntry> = {}): LogEntry => ({
  seq,
  time: Date.UTC(2026, 0, 1, 12, 0, 0, seq),
  source: 'server',
  level: 'info',
  text: `line ${String(seq)}`,
  ...over,
});

describe('filterLog', () => {
  const entries = [
    entry(1, { level: 'debug' }),
    entry(2, { level: 'warning', logger: 'db' }),
    entry(3, { level: 'error', source: 'stderr', text: 'Traceback' }),
    entry(4, { level: 'info', source: 'host', text: 'Connected' }),
  ];

  it('keeps entries at or above the minimum level', () => {
    expect(filterLog(entries, { ...NO_FILTER, minLevel: 'warning' }).map((e) => e.seq)).toEqual([2, 3]);
  });

  it('filters by source and searches text, logger and level', () => {
    expect(filterLog(entries, { ...NO_FILTER, source: 'host' }).map((e) => e.seq)).toEqual([4]);
    expect(filterLog(entries, { ...NO_FILTER, search: 'DB' }).map((e) => e.seq)).toEqual([2]);
    expect(filterLog(entries, { ...NO_FILTER, search: 'trace' }).map((e) => e.seq)).toEqual([3]);
  });

  it('formats lines for the clipboard', () => {
    expect(formatLines([entries[1] as LogEntry])).toBe('2026-01-01T12:00:00.002Z WARNING server [db] line 2');
  });
});

describe('mergeEntries', () => {
  it('drops entries already held and keeps the bound', () => {
    const held = [entry(1), entry(2)];
    expect(mergeEntries(held, [entry(2), entry(3)]).map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(mergeEntries(held, [entry(1)])).toBe(held);
    const many = Array.from({ length: MAX_LOG_ENTRIES + 10 }, (_, i) => entry(i + 1));
    const merged = mergeEntries([], many);
    expect(merged).toHaveLength(MAX_LOG_ENTRIES);
    expect(merged[0]?.seq).toBe(11);
  });
});
