import { createStore } from 'zustand/vanilla';
import type { StoreApi } from 'zustand/vanilla';
import type { HostConnection } from '../bridge/connection.js';
import type { HostApi } from '../../../shared/ipc/host-api.js';
import type { Result } from '../../../shared/ipc/result.js';
import type { ConsentAnswer, ConsentKind, ConsentRequest } from '../../../shared/model/consent.js';

export interface ConsentState {
  /** Requests waiting for the person, oldest first. */
  readonly pending: readonly ConsentRequest[];
  readonly actions: {
    /** Sends the decision; the request leaves the queue when the host confirms it (consentResolved) or refuses it. */
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
  const store = createStore<ConsentState>()((set) => ({
    pending: [],
    actions: {
      async answer(id, answer) {
        const result = await host.answerConsent({ id, answer });
        // Answered, or refused as stale/unknown: either way nothing is waiting on it any more.
        set((s) => ({ pending: s.pending.filter((r) => r.id !== id) }));
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
    connection.subscribe((state) => {
      if (state === 'connected') void load();
    }),
  ];
  if (connection.getState() === 'connected') void load();
  return {
    store,
    dispose() {
      for (const unsubscribe of unsubscribes) unsubscribe();
    },
  };
}
