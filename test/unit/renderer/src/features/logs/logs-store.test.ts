import { describe, expect, it, vi } from 'vitest';
import type { LogEntry } from '../../../../../../shared/model/logs.js';
import type { ServerSnapshot } from '../../../../../../shared/model/server.js';
import { createLogsStore } from '../../../../../../renderer/src/features/logs/logs-store.js';
import { fakeHost, ok } from '../../../../../helpers/renderer/fake-host.js';

const entry = (seq: number): LogEntry => ({
  seq,
  time: seq,
  source: 'stderr',
  level: 'info',
  text: `l${String(seq)}`,
});

/** Only what the logs store uses; every other request answers "not used". */
function logsHost(history: LogEntry[]) {
  const { host, emit } = fakeHost({
    getServerLogs: vi.fn(() => ok({ entries: history })),
    setLogLevel: vi.fn(() => ok(null)),
  });
  return { host, partial: host, emit };
}

describe('logs store', () => {
  it('keeps pushed entries after the fetched history, without duplicates', async () => {
    const { host, emit } = logsHost([entry(1), entry(2), entry(3)]);
    const { store, dispose } = createLogsStore(host);
    // An event arrives before the fetch answers; it overlaps the history.
    emit('serverLog', { server: 's', entries: [entry(3), entry(4)] });
    await store.getState().actions.load('s');
    emit('serverLog', { server: 's', entries: [entry(5)] });
    expect(store.getState().logs.s?.entries.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(store.getState().logs.s?.loaded).toBe(true);
    dispose();
  });

  it('records the level set, forgets it when the server reconnects, and drops a removed server', async () => {
    const { host, partial, emit } = logsHost([]);
    const { store, dispose } = createLogsStore(host);
    await store.getState().actions.load('s');
    await store.getState().actions.setLevel('s', 'warning');
    expect(partial.setLogLevel).toHaveBeenCalledWith({ name: 's', level: 'warning' });
    expect(store.getState().logs.s?.level).toBe('warning');
    emit('serverChanged', { name: 's', status: 'connecting' } as ServerSnapshot);
    expect(store.getState().logs.s?.level).toBeUndefined();
    emit('serverRemoved', { name: 's' });
    expect(store.getState().logs.s).toBeUndefined();
    dispose();
  });

  it('counts lines the host left out of a flood until the full log is loaded', async () => {
    const { host, emit } = logsHost([entry(1), entry(2), entry(3), entry(4)]);
    const { store, dispose } = createLogsStore(host);
    emit('serverLog', { server: 's', entries: [entry(4)], skipped: 3 });
    emit('serverLog', { server: 's', entries: [], skipped: 2 });
    expect(store.getState().logs.s?.skipped).toBe(5);
    await store.getState().actions.load('s');
    expect(store.getState().logs.s?.skipped).toBe(0);
    expect(store.getState().logs.s?.entries.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    dispose();
  });
});
