import type { DomainName } from '../../../shared/ipc/contract.js';
import type { DomainHandlers, HostHandlers } from '../ipc/handlers.js';

/**
 * THE table of request handlers: one entry per domain of the contract
 * (shared/ipc/requests/), each built by that domain's file in this folder.
 * Its type makes the compiler refuse a missing domain, a request without a
 * handler, and a handler without a request.
 */
export type HandlerTable = { [D in DomainName]: DomainHandlers<D> };

/** Joins the domains' handlers into the one object both pipes dispatch to. */
export function joinHandlers(table: HandlerTable): HostHandlers {
  const { app, servers, config, bundles, registry, settings, conversations, consent, features, apps, tasks } =
    table;
  return {
    ...app,
    ...servers,
    ...config,
    ...bundles,
    ...registry,
    ...settings,
    ...conversations,
    ...consent,
    ...features,
    ...apps,
    ...tasks,
  };
}
