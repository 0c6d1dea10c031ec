import type { EventName, EventPayload } from '../../../shared/ipc/contract.js';
import { REQUEST_NAMES } from '../../../shared/ipc/names.js';
import type { HostApi, HostEventListener, HostRequests } from '../../../shared/ipc/host-api.js';
import { err } from '../../../shared/ipc/result.js';
import type { Result } from '../../../shared/ipc/result.js';
import type { ConnectionState, HostConnection } from '../../../renderer/src/bridge/connection.js';

// For tests only: the fake host and connection every renderer store test uses.

/**
 * A HostApi from the requests a test cares about; every other request of
 * the contract answers "internal: not used by this test", so adding rows to
 * the contract does not break unrelated tests.
 */
export function completeHost<T extends Partial<HostRequests> & Pick<HostApi, 'on'>>(partial: T): T & HostApi {
  const unused = Object.fromEntries(
    REQUEST_NAMES.map((name) => [
      name,
      () => Promise.resolve(err('internal', `${name} is not used by this test`)),
    ]),
  );
  // Every request name is present (filled above, or the test's own function).
  return { ...unused, ...partial } as T & HostApi;
}

/** Pushes a host event to the listeners of a fake host. */
export type Emit = <E extends EventName>(event: E, payload: EventPayload<E>) => void;

/** An event bus: `on` for a fake HostApi, `emit` for the test. */
export function hostEvents(): { on: HostApi['on']; emit: Emit } {
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  return {
    on<E extends EventName>(event: E, listener: HostEventListener<E>): () => void {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      const wrapped = listener as (payload: unknown) => void;
      set.add(wrapped);
      return () => set.delete(wrapped);
    },
    emit(event, payload) {
      for (const listener of listeners.get(event) ?? []) listener(payload);
    },
  };
}

/** `completeHost` with its own event bus: the test's requests, events pushed with `emit`. */
export function fakeHost<T extends Partial<HostRequests>>(requests: T): { host: T & HostApi; emit: Emit } {
  const { on, emit } = hostEvents();
  return { host: completeHost({ ...requests, on }), emit };
}

/** A HostConnection whose state the test sets. */
export function fakeConnection(initial: ConnectionState): {
  connection: HostConnection;
  set: (next: ConnectionState) => void;
} {
  let state = initial;
  const listeners = new Set<(s: ConnectionState) => void>();
  return {
    connection: {
      getState: () => state,
      subscribe: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      hint: undefined,
    },
    set: (next) => {
      state = next;
      for (const listener of listeners) listener(next);
    },
  };
}

/** A request's successful answer. */
export const ok = <T>(value: T): Promise<Result<T>> => Promise.resolve({ ok: true, value });

/** Lets pending promise callbacks run. */
export const flush = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));
