import { describe, expect, it } from 'vitest';
import { dispatch } from '../../../../../electron/host/ipc/dispatch.js';
import { HostError } from '../../../../../electron/host/errors.js';
import type { HostHandlers } from '../../../../../electron/host/ipc/handlers.js';
import { requestNames } from '../../../../../shared/ipc/contract.js';

/** Handlers that record what reached them. */
function recordingHandlers(impl: (name: string, params: unknown) => unknown) {
  const handlers: Record<string, (params: unknown) => Promise<unknown>> = {};
  for (const name of requestNames) {
    handlers[name] = (params) => {
      try {
        return Promise.resolve(impl(name, params));
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
    };
  }
  return handlers as unknown as HostHandlers;
}

describe('dispatch', () => {
  const seen: unknown[] = [];
  const handlers = recordingHandlers((name, params) => {
    seen.push(params);
    if (name === 'stopServer') throw new HostError('not_found', 'No server named "x"');
    if (name === 'startServer') throw new TypeError('boom\n    at secret (/home/me/file.js:1:1)');
    return null;
  });

  it('rejects names that are not in the contract', async () => {
    expect(await dispatch(handlers, 'constructor', {})).toMatchObject({
      ok: false,
      error: { code: 'invalid_params' },
    });
    expect(await dispatch(handlers, '__proto__', {})).toMatchObject({
      ok: false,
      error: { code: 'invalid_params' },
    });
  });

  it('validates params against the schema before any handler runs', async () => {
    seen.length = 0;
    const result = await dispatch(handlers, 'saveServer', {
      input: { transport: 'stdio', name: '', command: 'x' },
    });
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'invalid_params', message: expect.stringContaining('name') },
    });
    expect(await dispatch(handlers, 'listServers', { extra: 1 })).toMatchObject({ ok: false });
    expect(
      await dispatch(handlers, 'saveServer', {
        input: { transport: 'stdio', name: 'a', command: 'x', env: { LD_PRELOAD: '/evil.so' } },
      }),
    ).toMatchObject({ ok: false, error: { code: 'invalid_params' } });
    expect(seen).toEqual([]);
  });

  it('passes parsed params with defaults applied', async () => {
    seen.length = 0;
    expect(
      await dispatch(handlers, 'saveServer', { input: { transport: 'stdio', name: 'a', command: 'x' } }),
    ).toEqual({
      ok: true,
      value: null,
    });
    expect(seen).toEqual([{ input: { transport: 'stdio', name: 'a', command: 'x', args: [], env: {} } }]);
  });

  it('turns thrown errors into values: HostError keeps its code, anything else is internal with one line', async () => {
    expect(await dispatch(handlers, 'stopServer', { name: 'x' })).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'No server named "x"' },
    });
    const internal = await dispatch(handlers, 'startServer', { name: 'x' });
    expect(internal).toMatchObject({ ok: false, error: { code: 'internal' } });
    if (!internal.ok) expect(internal.error.message).not.toContain('\n');
  });
});
