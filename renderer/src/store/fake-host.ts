import { REQUEST_NAMES } from '../../../shared/ipc/names.js';
import type { HostApi, HostRequests } from '../../../shared/ipc/host-api.js';
import { err } from '../../../shared/ipc/result.js';

/**
 * For tests: a HostApi from the requests a test cares about; every other
 * request of the contract answers "internal: not used by this test", so
 * adding rows to the contract does not break unrelated tests.
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
