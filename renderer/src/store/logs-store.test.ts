import { describe, expect, it, vi } from 'vitest';
import type { EventName, EventPayload } from '../../../shared/ipc/contract.js';
import type { HostApi, HostEventListener } from '../../../shared/ipc/host-api.js';
import type { Result } from '../../../shared/ipc/result.js';
import type { LogEntry } from '../../../shared/model/logs.js';
import type { ServerSnapshot } from '../../../shared/model/server.js';
import { createLogsStore } from './logs-store.js';

const entry = (seq: number): LogEntry => ({
  seq,
  time: seq,
  source: 'stderr',
  level: 'info',
  text: `l${String(seq)}`,
});
const ok = <T>(value: T): Promise<Result<T>> => Promise.resolve({ ok: true, value });

/** Only what the logs store uses; the rest of the HostApi is never called here. */
function fakeHost(history: LogEntry[]) {
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  const partial = {
    getServerLogs: vi.fn(() => ok({ entries: history })),
    setLogLevel: vi.fn(() => ok(null)),
    on<E extends EventName>(event: E, listener: HostEventListener<E>): () => void {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener as (payload: unknown) => void);
      return () => set.delete(listener as (payload: unknown) => void);
    },
  };
  const emit = <E extends EventName>(event: E, payload: EventPayload<E>): void => {
    for (const listener of listeners.get(event) ?? []) listener(payload);
  };
  return { host: partial as unknown as HostApi, partial, emit };
}

describe('logs store', () => {
  it('keeps pushed entries after the fetched history, without duplicates', async () => {
    const { host, emit } = fakeHost([entry(1), entry(2), entry(3)]);
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
    const { host, partial, emit } = fakeHost([]);
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
});
