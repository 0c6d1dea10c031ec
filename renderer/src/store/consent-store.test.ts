import { describe, expect, it, vi } from 'vitest';
import type { EventName, EventPayload } from '../../../shared/ipc/contract.js';
import type { HostEventListener } from '../../../shared/ipc/host-api.js';
import type { Result } from '../../../shared/ipc/result.js';
import type { ConsentRequest } from '../../../shared/model/consent.js';
import type { HostConnection } from '../bridge/connection.js';
import { createConsentStore } from './consent-store.js';
import { completeHost } from './fake-host.js';

const request = (id: string, createdAt: number): ConsentRequest => ({
  id: id.padEnd(22, 'x'),
  kind: 'tool',
  server: 'everything',
  createdAt,
  prompt: { tool: 'echo', argumentsJson: '{}' },
});
const ok = <T>(value: T): Promise<Result<T>> => Promise.resolve({ ok: true, value });
const flush = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

describe('createConsentStore', () => {
  it('queues oldest first, drops resolved requests, and answers through the host', async () => {
    const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
    const host = completeHost({
      listConsents: vi.fn(() => ok([request('b', 2)])),
      answerConsent: vi.fn(() => ok(null)),
      on<E extends EventName>(event: E, listener: HostEventListener<E>): () => void {
        const set = listeners.get(event) ?? new Set();
        listeners.set(event, set);
        set.add(listener as (payload: unknown) => void);
        return () => undefined;
      },
    });
    const emit = <E extends EventName>(event: E, payload: EventPayload<E>): void => {
      for (const listener of listeners.get(event) ?? []) listener(payload);
    };
    const connection: HostConnection = {
      getState: () => 'connected',
      subscribe: () => () => undefined,
      hint: undefined,
    };
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
