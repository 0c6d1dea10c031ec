import { describe, expect, it, vi } from 'vitest';
import type { EventName, EventPayload } from '../../../shared/ipc/contract.js';
import type { HostApi } from '../../../shared/ipc/host-api.js';
import type { Result } from '../../../shared/ipc/result.js';
import { createFeaturesStore, readOf, rootsOf } from './features-store.js';

const ok = <T>(value: T): Promise<Result<T>> => Promise.resolve({ ok: true, value });

/** A host with the given requests; any other request answers "not used". */
function fakeHost(requests: Partial<Record<keyof HostApi, (params: never) => Promise<Result<unknown>>>>) {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const on = (event: EventName, listener: (payload: unknown) => void) => {
    const set = listeners.get(event) ?? new Set();
    listeners.set(event, set);
    set.add(listener);
    return () => set.delete(listener);
  };
  const host = new Proxy(
    {},
    {
      get: (_, name: string) =>
        name === 'on'
          ? on
          : (requests[name as keyof HostApi] ??
            (() => Promise.resolve({ ok: false, error: { code: 'internal', message: `${name} not used` } }))),
    },
  ) as unknown as HostApi;
  const emit = <E extends EventName>(event: E, payload: EventPayload<E>) => {
    for (const listener of listeners.get(event) ?? []) listener(payload);
  };
  return { host, emit };
}

describe('features store', () => {
  it('keeps subscriptions for the same connection and forgets them for a new one', async () => {
    const subscribe = vi.fn(() => ok(null));
    const { host } = fakeHost({ subscribeResource: subscribe });
    const { store } = createFeaturesStore(host);
    const { syncConnection, setSubscribed } = store.getState().actions;
    syncConnection('a', 100);
    expect(await setSubscribed('a', 'x://1', true)).toBeUndefined();
    expect(subscribe).toHaveBeenCalledWith({ server: 'a', uri: 'x://1' });
    syncConnection('a', 100);
    expect(store.getState().subscribed.a).toEqual(['x://1']);
    syncConnection('a', 200);
    expect(store.getState().subscribed.a).toEqual([]);
  });

  it('records resourceUpdated events per server and URI', () => {
    const { host, emit } = fakeHost({});
    const { store, dispose } = createFeaturesStore(host);
    emit('resourceUpdated', { server: 'a', uri: 'x://1', at: 5 });
    emit('resourceUpdated', { server: 'a', uri: 'x://1', at: 9 });
    expect(store.getState().updatedAt).toEqual({ a: { 'x://1': 9 } });
    dispose();
    emit('resourceUpdated', { server: 'a', uri: 'x://1', at: 12 });
    expect(store.getState().updatedAt.a?.['x://1']).toBe(9);
  });

  it('stores a read and its failure, and a refused root with its message', async () => {
    const { host } = fakeHost({
      readResource: (params: { target: { uri: string } }) =>
        params.target.uri === 'x://1'
          ? ok({ uri: 'x://1', contents: [], readAt: 1 })
          : Promise.resolve({ ok: false, error: { code: 'protocol_error', message: 'Unknown resource' } }),
      addRoot: () =>
        Promise.resolve({ ok: false, error: { code: 'invalid_params', message: 'Use an absolute path' } }),
    });
    const { store } = createFeaturesStore(host);
    const { read, addRoot } = store.getState().actions;
    await read('a', 'x://1', { uri: 'x://1' });
    expect(readOf(store.getState(), 'a', 'x://1')).toMatchObject({
      loading: false,
      result: { uri: 'x://1' },
    });
    await read('a', 'x://2', { uri: 'x://2' });
    expect(readOf(store.getState(), 'a', 'x://2')).toMatchObject({
      loading: false,
      result: undefined,
      error: { code: 'protocol_error' },
    });
    expect(await addRoot('a', 'rel')).toEqual({ code: 'invalid_params', message: 'Use an absolute path' });
    expect(rootsOf(store.getState(), 'a').roots).toEqual([]);
  });
});
