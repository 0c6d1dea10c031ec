import type { EventName, EventPayload, RequestName, RequestParams, RequestResult } from './contract.js';
import type { Result } from './result.js';

/**
 * The API the renderer sees as `window.host` (Electron) or through the
 * WebSocket bridge (headless). Derived from the contract, never written by hand.
 */
export type HostRequests = {
  [K in RequestName]: (params: RequestParams<K>) => Promise<Result<RequestResult<K>>>;
};

export type HostEventListener<E extends EventName> = (payload: EventPayload<E>) => void;

export interface HostApi extends HostRequests {
  /** Subscribe to a host event; returns the function that unsubscribes. */
  on<E extends EventName>(event: E, listener: HostEventListener<E>): () => void;
}
