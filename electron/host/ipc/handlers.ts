import type {
  DomainName,
  Domains,
  EventName,
  EventPayload,
  ParsedParams,
  RequestName,
  RequestResult,
} from '../../../shared/ipc/contract.js';

/** One function per request of the contract, taking validated params. */
export type HostHandlers = {
  [K in RequestName]: (params: ParsedParams<K>) => Promise<RequestResult<K>>;
};

export type HostEventSink = <E extends EventName>(event: E, payload: EventPayload<E>) => void;
export type AnyHostEventListener = (event: EventName, payload: unknown) => void;

/** The handlers of one domain of the contract: exactly its requests, no more, no fewer. */
export type DomainHandlers<D extends DomainName> = Pick<HostHandlers, keyof Domains[D] & RequestName>;
