import { describe, expect, it, vi } from 'vitest';
import type { EventName, EventPayload } from '../../../shared/ipc/contract.js';
import type { HostApi } from '../../../shared/ipc/host-api.js';
import type { Result } from '../../../shared/ipc/result.js';
import type { ConsentRequest } from '../../../shared/model/consent.js';
import type { ConnectionState, HostConnection } from '../bridge/connection.js';
import { createConsentStore } from './consent-store.js';

const ok = <T>(value: T): Promise<Result<T>> => Promise.resolve({ ok: true, value });
const flush = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

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

function connection(initial: ConnectionState) {
  let state = initial;
  const listeners = new Set<(s: ConnectionState) => void>();
  const value: HostConnection = {
    getState: () => state,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    hint: undefined,
  };
  return {
    value,
    set: (next: ConnectionState) => {
      state = next;
      for (const listener of listeners) listener(next);
    },
  };
}

const form = (id: string): ConsentRequest => ({
  id,
  kind: 'elicitationForm',
  server: 'everything',
  createdAt: 1,
  prompt: { message: 'Name?', requestedSchema: { type: 'object', properties: { n: { type: 'string' } } } },
});
const tool: ConsentRequest = {
  id: 'tool-request-id-0000000',
  kind: 'tool',
  server: 'everything',
  createdAt: 1,
  prompt: { tool: 'echo', argumentsJson: '{}' },
};

describe('consent store: every kind, answers and refusals', () => {
  it('restores the pending requests of every kind on every (re)connect', async () => {
    const listConsents = vi.fn(() => ok([tool, form('a-0000000000000000000000')]));
    const { host } = fakeHost({ listConsents });
    const link = connection('connecting');
    const { store } = createConsentStore(host, link.value);
    expect(listConsents).not.toHaveBeenCalled();
    link.set('connected');
    await flush();
    expect(store.getState().pending.map((r) => r.id)).toEqual([tool.id, 'a-0000000000000000000000']);
    link.set('reconnecting');
    link.set('connected');
    await flush();
    expect(listConsents).toHaveBeenCalledTimes(2);
  });

  it('queues consentRequested in order and drops what consentResolved names', () => {
    const { host, emit } = fakeHost({});
    const { store } = createConsentStore(host, connection('connecting').value);
    emit('consentRequested', form('a-0000000000000000000000'));
    emit('consentRequested', tool);
    emit('consentRequested', form('b-0000000000000000000000'));
    emit('consentRequested', form('a-0000000000000000000000'));
    expect(store.getState().pending.map((r) => r.id)).toEqual([
      'a-0000000000000000000000',
      tool.id,
      'b-0000000000000000000000',
    ]);
    emit('consentResolved', { id: 'a-0000000000000000000000', outcome: 'withdrawn' });
    expect(store.getState().pending.map((r) => r.id)).toEqual([tool.id, 'b-0000000000000000000000']);
  });

  it('sends the answer; a refused answer stays pending with the host’s message', async () => {
    const answerConsent = vi.fn(() =>
      Promise.resolve<Result<null>>({
        ok: false,
        error: { code: 'invalid_params', message: 'Not a valid answer' },
      }),
    );
    const { host } = fakeHost({ answerConsent });
    const { store } = createConsentStore(host, connection('connecting').value);
    store.setState({ pending: [form('a-0000000000000000000000')] as never });
    await store.getState().actions.answer('a-0000000000000000000000', { action: 'accept', content: {} });
    expect(answerConsent).toHaveBeenCalledWith({
      id: 'a-0000000000000000000000',
      answer: { action: 'accept', content: {} },
    });
    expect(store.getState()).toMatchObject({
      answering: undefined,
      error: { message: 'Not a valid answer' },
    });
    expect(store.getState().pending).toHaveLength(1);

    answerConsent.mockImplementationOnce(() => ok(null));
    await store.getState().actions.answer('a-0000000000000000000000', { action: 'decline' });
    expect(store.getState()).toMatchObject({ pending: [], error: undefined });
  });
});
