import { isRequestName, requests } from '../../../shared/ipc/contract.js';
import type { RequestName } from '../../../shared/ipc/contract.js';
import { err, ok } from '../../../shared/ipc/result.js';
import type { Result } from '../../../shared/ipc/result.js';
import { HostError, describeError } from '../errors.js';
import type { HostHandlers } from './handlers.js';

/**
 * The single entry point both pipes (Electron IPC and the headless WebSocket)
 * use: checks the request name, validates the payload against the contract's
 * schema, runs the handler and turns every outcome into a value. Nothing the
 * renderer sends reaches a handler unvalidated, and no exception crosses back.
 */
export async function dispatch(
  handlers: HostHandlers,
  name: unknown,
  rawParams: unknown,
): Promise<Result<unknown>> {
  if (!isRequestName(name)) return err('invalid_params', `Unknown request: ${String(name).slice(0, 64)}`);
  const parsed = requests[name].params.safeParse(rawParams ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    return err('invalid_params', `${where}${issue?.message ?? 'invalid request'}`);
  }
  try {
    return ok(await invoke(handlers, name, parsed.data));
  } catch (error) {
    if (error instanceof HostError) return err(error.code, error.message);
    return err('internal', describeError(error));
  }
}

/** The params were parsed with this request's own schema, so they fit its handler. */
function invoke(handlers: HostHandlers, name: RequestName, params: unknown): Promise<unknown> {
  const handler = handlers[name] as (p: unknown) => Promise<unknown>;
  return handler(params);
}
