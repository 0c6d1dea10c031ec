import { requestNames } from '../../../shared/ipc/contract.js';
import type { HostRequests } from '../../../shared/ipc/host-api.js';
import { dispatch } from './dispatch.js';
import type { HostHandlers } from './handlers.js';

/**
 * The host API in-process, through the same validation and error-as-value
 * path as the two pipes. The CLI and the tests call the host this way.
 */
export function createLocalClient(handlers: HostHandlers): HostRequests {
  const client: Record<string, (params: unknown) => Promise<unknown>> = {};
  for (const name of requestNames) client[name] = (params) => dispatch(handlers, name, params);
  return client as unknown as HostRequests;
}
