import { describe, expect, it, vi } from 'vitest';
import type { ConsentRule } from '../../../../../../shared/model/consent-rules.js';
import { err } from '../../../../../../shared/ipc/result.js';
import { fakeConnection, fakeHost, flush, ok } from '../../../../../helpers/renderer/fake-host.js';
import { createRulesStore } from '../../../../../../renderer/src/features/consent/rules-store.js';

const rule = (id: string, extra: Partial<ConsentRule> = {}): ConsentRule => ({
  id,
  server: 'everything',
  scope: 'tool',
  tool: 'echo',
  createdAt: 1,
  ...extra,
});

describe('createRulesStore', () => {
  it('loads on connect, follows policiesChanged, and keeps the store problem', async () => {
    const { host, emit } = fakeHost({ listPolicies: vi.fn(() => ok({ rules: [rule('a')] })) });
    const { connection, set } = fakeConnection('connecting');
    const { store } = createRulesStore(host, connection);
    expect(store.getState().rules).toBeUndefined();
    set('connected');
    await flush();
    expect(store.getState().rules?.map((r) => r.id)).toEqual(['a']);

    emit('policiesChanged', { rules: [], problem: 'The rule store is damaged.' });
    expect(store.getState()).toMatchObject({ rules: [], problem: 'The rule store is damaged.' });
  });

  it('revokes and switches server trust through the host; a refusal is kept to show', async () => {
    const { host } = fakeHost({
      listPolicies: vi.fn(() => ok({ rules: [rule('a'), rule('b', { scope: 'server', tool: undefined })] })),
      revokePolicy: vi.fn(() => ok(null)),
      setServerTrust: vi.fn(() => Promise.resolve(err('conflict', 'No rule was saved'))),
    });
    const { connection } = fakeConnection('connected');
    const { store } = createRulesStore(host, connection);
    await flush();
    await store.getState().actions.revoke('a');
    expect(host.revokePolicy).toHaveBeenCalledWith({ id: 'a' });
    expect(store.getState().rules?.map((r) => r.id)).toEqual(['b']);

    const result = await store.getState().actions.setServerTrust('everything', 'read-only', true);
    expect(result.ok).toBe(false);
    expect(host.setServerTrust).toHaveBeenCalledWith({
      server: 'everything',
      scope: 'read-only',
      enabled: true,
    });
    expect(store.getState().error?.message).toBe('No rule was saved');
  });
});
