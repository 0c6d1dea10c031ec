import { describe, expect, it } from 'vitest';
import { ServerLog, ServerLogs } from '../../../../../../electron/host/servers/lifecycle/server-log.js';
import type { ServerLogBatch } from '../../../../../../shared/model/logs.js';

describe('ServerLog ring buffer', () => {
  it('keeps the newest entries up to its bound, oldest first, with growing seq', () => {
    const log = new ServerLog(5, 100);
    for (let n = 1; n <= 12; n++) log.append({ source: 'stderr', level: 'info', text: `line ${String(n)}` });
    expect(log.length).toBe(5);
    expect(log.entries().map((e) => e.text)).toEqual(['line 8', 'line 9', 'line 10', 'line 11', 'line 12']);
    expect(log.entries().map((e) => e.seq)).toEqual([8, 9, 10, 11, 12]);
  });

  it('cuts long lines and loggers', () => {
    const log = new ServerLog(10, 20);
    const entry = log.append({
      source: 'server',
      level: 'error',
      logger: 'x'.repeat(1000),
      text: 'y'.repeat(10_000),
    });
    expect(entry.text).toHaveLength(20);
    expect(entry.text.endsWith('…')).toBe(true);
    expect(entry.logger).toHaveLength(256);
  });

  it('keeps the total text under its character budget, dropping the oldest entries', () => {
    const log = new ServerLog(1000, 100, 250);
    for (let n = 0; n < 10; n++) log.append({ source: 'stderr', level: 'info', text: String(n).repeat(100) });
    expect(log.entries().map((e) => e.text[0])).toEqual(['8', '9']);
    const total = log.entries().reduce((sum, e) => sum + e.text.length, 0);
    expect(total).toBeLessThanOrEqual(250);
  });

  it('reads back the entries newer than a sequence number', () => {
    const log = new ServerLog(3, 100);
    for (let n = 1; n <= 5; n++) log.append({ source: 'host', level: 'info', text: `l${String(n)}` });
    expect(log.entriesAfter(3).map((e) => e.seq)).toEqual([4, 5]);
    expect(log.entriesAfter(0).map((e) => e.seq)).toEqual([3, 4, 5]);
    expect(log.entriesAfter(5)).toEqual([]);
  });
});

describe('ServerLogs', () => {
  it('batches new entries per server into one event per flush', () => {
    const events: ServerLogBatch[] = [];
    const logs = new ServerLogs(
      (event, payload) => {
        if (event === 'serverLog') events.push(payload as ServerLogBatch);
      },
      { flushMs: 60_000 },
    );
    for (let n = 0; n < 100; n++) logs.append('a', { source: 'stderr', level: 'info', text: String(n) });
    logs.append('b', { source: 'host', level: 'warning', text: 'exited' });
    expect(events).toHaveLength(0);
    logs.flush();
    expect(events.map((e) => [e.server, e.entries.length])).toEqual([
      ['a', 100],
      ['b', 1],
    ]);
    expect(logs.snapshot('a').entries).toHaveLength(100);
    logs.delete('a');
    expect(logs.snapshot('a').entries).toHaveLength(0);
  });

  it('never holds more pending entries than the buffer keeps', () => {
    const events: ServerLogBatch[] = [];
    const logs = new ServerLogs((_event, payload) => events.push(payload as ServerLogBatch), {
      flushMs: 60_000,
      maxEntries: 50,
    });
    for (let n = 0; n < 10_000; n++) logs.append('a', { source: 'stderr', level: 'info', text: String(n) });
    logs.flush();
    expect(events[0]?.entries).toHaveLength(50);
    expect(events[0]?.entries.at(-1)?.text).toBe('9999');
    expect(logs.snapshot('a').entries.map((e) => e.text)).toEqual(events[0]?.entries.map((e) => e.text));
  });

  it('a flood sends its newest lines within the budget, counts the rest, and slows the next batch', async () => {
    const events: ServerLogBatch[] = [];
    const logs = new ServerLogs((_event, payload) => events.push(payload as ServerLogBatch), {
      flushMs: 5,
      floodFlushMs: 400,
      budgetChars: 1000,
    });
    for (let n = 0; n < 1000; n++)
      logs.append('a', { source: 'stderr', level: 'info', text: 'x'.repeat(99) + String(n % 10) });
    logs.flush();
    expect(events[0]?.entries).toHaveLength(10);
    expect(events[0]?.entries.at(-1)?.seq).toBe(1000);
    expect(events[0]?.skipped).toBe(990);
    // The whole log stays in the host.
    expect(logs.snapshot('a').entries).toHaveLength(1000);

    logs.append('a', { source: 'stderr', level: 'info', text: 'after the flood' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(events).toHaveLength(1);
    await expect.poll(() => events.length, { timeout: 2000 }).toBe(2);
    expect(events[1]).toEqual({
      server: 'a',
      entries: [expect.objectContaining({ text: 'after the flood' })],
    });

    // Back to normal: the next batch comes after the short interval again.
    logs.append('a', { source: 'stderr', level: 'info', text: 'calm' });
    await expect.poll(() => events.length, { timeout: 100 }).toBe(3);
    logs.dispose();
  });
});
