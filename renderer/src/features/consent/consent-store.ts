import { createStore } from 'zustand/vanilla';
import type { StoreApi } from 'zustand/vanilla';
import { loadOnEveryConnect } from '../../bridge/connection.js';
import type { HostConnection } from '../../bridge/connection.js';
import type { HostApi } from '../../../../shared/ipc/host-api.js';
import type { HostErrorValue, Result } from '../../../../shared/ipc/result.js';
import type { ConsentAnswer, ConsentKind, ConsentRequest } from '../../../../shared/model/consent.js';

export interface ConsentState {
  /** Requests waiting for the person, oldest first. */
  readonly pending: readonly ConsentRequest[];
  /** The id whose answer is on its way to the host (its dialog shows it is busy). */
  readonly answering: string | undefined;
  /** The host's refusal of the last answer, shown in the dialog. */
  readonly error: HostErrorValue | undefined;
  readonly actions: {
    /**
     * Sends the decision. The request leaves the queue when the host takes it,
     * or refuses it as unknown/stale; an answer of the wrong shape leaves it
     * open with the host's message, so the person can fix it.
     */
    answer: <K extends ConsentKind>(id: string, answer: ConsentAnswer<K>) => Promise<Result<null>>;
  };
}

export interface ConsentStore {
  readonly store: StoreApi<ConsentState>;
  dispose(): void;
}

const oldestFirst = (a: ConsentRequest, b: ConsentRequest): number => a.createdAt - b.createdAt;

/**
 * The queue of pending consent requests, a view of the host's ConsentBroker:
 * filled from listConsents on every (re)connect, then kept by the
 * consentRequested / consentResolved events.
 */
export function createConsentStore(host: HostApi, connection: HostConnection): ConsentStore {
  const store = createStore<ConsentState>()((set, get) => ({
    pending: [],
    answering: undefined,
    error: undefined,
    actions: {
      async answer(id, answer) {
        if (get().answering === id)
          return { ok: false, error: { code: 'conflict', message: 'Already sending' } };
        set({ answering: id, error: undefined });
        const result = await host.answerConsent({ id, answer });
        set((s) => ({
          answering: undefined,
          error: result.ok ? undefined : result.error,
          pending:
            result.ok || result.error.code !== 'invalid_params'
              ? s.pending.filter((r) => r.id !== id)
              : s.pending,
        }));
        return result;
      },
    },
  }));
  const { setState } = store;
  const load = async (): Promise<void> => {
    const result = await host.listConsents({});
    if (result.ok) setState({ pending: [...result.value].sort(oldestFirst) });
  };
  const unsubscribes = [
    host.on('consentRequested', (request) => {
      setState((s) =>
        s.pending.some((r) => r.id === request.id)
          ? s
          : { pending: [...s.pending, request].sort(oldestFirst) },
      );
    }),
    host.on('consentResolved', ({ id }) => {
      setState((s) => ({ pending: s.pending.filter((r) => r.id !== id) }));
    }),
    loadOnEveryConnect(connection, load),
  ];
  return {
    store,
    dispose() {
      for (const unsubscribe of unsubscribes) unsubscribe();
    },
  };
}
