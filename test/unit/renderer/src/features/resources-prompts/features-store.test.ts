import { describe, expect, it, vi } from 'vitest';
import {
  createFeaturesStore,
  readOf,
  rootsOf,
} from '../../../../../../renderer/src/features/resources-prompts/features-store.js';
import { fakeHost, ok } from '../../../../../helpers/renderer/fake-host.js';

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
      readResource: (params) =>
        'uri' in params.target && params.target.uri === 'x://1'
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
