import { describe, expect, it, vi } from 'vitest';
import type { ConsentRequest } from '../../../../../../shared/model/consent.js';
import { createConsentStore } from '../../../../../../renderer/src/features/consent/consent-store.js';
import type { Result } from '../../../../../../shared/ipc/result.js';
import { fakeConnection, fakeHost, flush, ok } from '../../../../../helpers/renderer/fake-host.js';

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
    const link = fakeConnection('connecting');
    const { store } = createConsentStore(host, link.connection);
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
    const { store } = createConsentStore(host, fakeConnection('connecting').connection);
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
    const { store } = createConsentStore(host, fakeConnection('connecting').connection);
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
