import { describe, expect, it, vi } from 'vitest';
import type { ConsentRequest } from '../../../../../../shared/model/consent.js';
import { createConsentStore } from '../../../../../../renderer/src/features/consent/consent-store.js';
import { fakeConnection, fakeHost, flush, ok } from '../../../../../helpers/renderer/fake-host.js';

const request = (id: string, createdAt: number): ConsentRequest => ({
  id: id.padEnd(22, 'x'),
  kind: 'tool',
  server: 'everything',
  createdAt,
  prompt: { tool: 'echo', argumentsJson: '{}' },
});

describe('createConsentStore', () => {
  it('queues oldest first, drops resolved requests, and answers through the host', async () => {
    const { host, emit } = fakeHost({
      listConsents: vi.fn(() => ok([request('b', 2)])),
      answerConsent: vi.fn(() => ok(null)),
    });
    const { connection } = fakeConnection('connected');
    const { store } = createConsentStore(host, connection);
    await flush();
    emit('consentRequested', request('a', 1));
    emit('consentRequested', request('c', 3));
    emit('consentRequested', request('c', 3));
    expect(store.getState().pending.map((r) => r.id[0])).toEqual(['a', 'b', 'c']);

    emit('consentResolved', { id: request('a', 1).id, outcome: 'withdrawn' });
    expect(store.getState().pending.map((r) => r.id[0])).toEqual(['b', 'c']);

    await store.getState().actions.answer(request('b', 2).id, { decision: 'deny' });
    expect(host.answerConsent).toHaveBeenCalledWith({ id: request('b', 2).id, answer: { decision: 'deny' } });
    expect(store.getState().pending.map((r) => r.id[0])).toEqual(['c']);
  });
});
