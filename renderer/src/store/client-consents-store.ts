import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { StoreApi } from 'zustand/vanilla';
import type { HostApi } from '../../../shared/ipc/host-api.js';
import type { HostErrorValue } from '../../../shared/ipc/result.js';
import type { ConsentRequest, ConsentRequestOf } from '../../../shared/model/consent.js';
import type { HostConnection } from '../bridge/connection.js';
import { getHost, getHostConnection } from '../bridge/get-host.js';

/** The consent kinds a server (not the model) raises: sampling and elicitation. */
export const CLIENT_CONSENT_KINDS = [
  'sampling',
  'samplingReview',
  'elicitationForm',
  'elicitationUrl',
] as const;
export type ClientConsentKind = (typeof CLIENT_CONSENT_KINDS)[number];
export type ClientConsentRequest = ConsentRequestOf<ClientConsentKind>;

const isClientConsent = (request: ConsentRequest): request is ClientConsentRequest =>
  (CLIENT_CONSENT_KINDS as readonly string[]).includes(request.kind);

export interface ClientConsentsData {
  /** Waiting requests, oldest first; the dialog shows the first. */
  readonly pending: readonly ClientConsentRequest[];
  /** The id whose answer is on its way to the host. */
  readonly answering: string | undefined;
  /** The host's refusal of the last answer (shown in the dialog). */
  readonly error: HostErrorValue | undefined;
}

export interface ClientConsentsActions {
  /** Sends the person's answer; the request leaves `pending` when the host says it was resolved. */
  answer: (id: string, answer: unknown) => Promise<void>;
}

export interface ClientConsentsState extends ClientConsentsData {
  readonly actions: ClientConsentsActions;
}

/**
 * The sampling and elicitation requests waiting for the person. The host is
 * the source of truth: requests arrive as `consentRequested`, leave as
 * `consentResolved` (answered here, withdrawn by the server), and the whole
 * list is fetched again after every (re)connect.
 */
export function createClientConsentsStore(
  host: HostApi,
  connection: HostConnection,
): { store: StoreApi<ClientConsentsState>; dispose: () => void } {
  const store = createStore<ClientConsentsState>()((set, get) => ({
    pending: [],
    answering: undefined,
    error: undefined,
    actions: {
      async answer(id, answer) {
        if (get().answering === id) return;
        set({ answering: id, error: undefined });
        const result = await host.answerConsent({ id, answer });
        set((s) => ({
          answering: undefined,
          error: result.ok ? undefined : result.error,
          // Answered (or already gone): it leaves the queue either way; the host's event agrees.
          pending:
            result.ok || result.error.code !== 'invalid_params'
              ? s.pending.filter((r) => r.id !== id)
              : s.pending,
        }));
      },
    },
  }));

  const refresh = async (): Promise<void> => {
    const result = await host.listConsents({});
    if (result.ok) store.setState({ pending: result.value.filter(isClientConsent) });
  };
  const offRequested = host.on('consentRequested', (request) => {
    if (!isClientConsent(request)) return;
    store.setState((s) =>
      s.pending.some((r) => r.id === request.id) ? s : { pending: [...s.pending, request] },
    );
  });
  const offResolved = host.on('consentResolved', ({ id }) => {
    store.setState((s) => ({ pending: s.pending.filter((r) => r.id !== id) }));
  });
  const offConnection = connection.subscribe((state) => {
    if (state === 'connected') void refresh();
  });
  if (connection.getState() === 'connected') void refresh();

  return {
    store,
    dispose: () => {
      offRequested();
      offResolved();
      offConnection();
    },
  };
}

let instance: StoreApi<ClientConsentsState> | undefined;

/** The window's sampling/elicitation consent store, bound to the host on first use. */
export function clientConsentsStore(): StoreApi<ClientConsentsState> {
  instance ??= createClientConsentsStore(getHost(), getHostConnection()).store;
  return instance;
}

export function useClientConsents<T>(selector: (state: ClientConsentsState) => T): T {
  return useStore(clientConsentsStore(), selector);
}
