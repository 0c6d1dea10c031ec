import { afterEach, describe, expect, it } from 'vitest';
import { bindHostToIpc, forwardHostEvents } from '../../../electron/electron-ipc.js';
import { requestChannel, requestNames } from '../../../shared/ipc/contract.js';
import { createTestHost } from '../../helpers/host.js';
import type { TestHost } from '../../helpers/host.js';

// Electron's types, through the adapter's signatures (tests may not import electron).
type IpcMain = Parameters<typeof bindHostToIpc>[1];
type IpcMainInvokeEvent = Parameters<Parameters<typeof bindHostToIpc>[2]>[0];
type BrowserWindow = NonNullable<ReturnType<Parameters<typeof forwardHostEvents>[1]>>;

type Handler = (event: IpcMainInvokeEvent, params: unknown) => Promise<unknown>;

/** The two ipcMain methods the adapter uses, recorded. */
function fakeIpcMain() {
  const handlers = new Map<string, Handler>();
  const ipcMain = {
    handle: (channel: string, handler: Handler) => handlers.set(channel, handler),
    removeHandler: (channel: string) => handlers.delete(channel),
  };
  return { handlers, ipcMain: ipcMain as unknown as IpcMain };
}

const trustedEvent = { tag: 'ours' } as unknown as IpcMainInvokeEvent;
const strangerEvent = { tag: 'iframe' } as unknown as IpcMainInvokeEvent;
const isTrusted = (event: IpcMainInvokeEvent) => (event as unknown as { tag: string }).tag === 'ours';

let t: TestHost | undefined;
afterEach(async () => {
  await t?.dispose();
});

describe('Electron IPC adapter', () => {
  it('binds one handler per request of the contract and removes them all', async () => {
    t = await createTestHost();
    const { handlers, ipcMain } = fakeIpcMain();
    const dispose = bindHostToIpc(t.host, ipcMain, isTrusted);
    expect([...handlers.keys()].sort()).toEqual(requestNames.map(requestChannel).sort());
    dispose();
    expect(handlers.size).toBe(0);
  });

  it('answers an untrusted frame with "denied" before looking at the payload', async () => {
    t = await createTestHost();
    const { handlers, ipcMain } = fakeIpcMain();
    bindHostToIpc(t.host, ipcMain, isTrusted);
    const save = handlers.get(requestChannel('saveServer'));
    const result = await save?.(strangerEvent, {
      input: { transport: 'stdio', name: 'x', command: 'sh', args: ['-c', 'touch /tmp/pwned'] },
    });
    expect(result).toEqual({
      ok: false,
      error: { code: 'denied', message: 'Request from an untrusted frame' },
    });
    expect(t.events.filter((e) => e.event === 'serverChanged')).toEqual([]);
    expect(await t.api.listServers({})).toEqual({ ok: true, value: [] });
  });

  it('a sender check that throws counts as untrusted', async () => {
    t = await createTestHost();
    const { handlers, ipcMain } = fakeIpcMain();
    bindHostToIpc(t.host, ipcMain, () => {
      throw new Error('frame destroyed');
    });
    const result = await handlers.get(requestChannel('listServers'))?.(trustedEvent, {});
    expect(result).toMatchObject({ ok: false, error: { code: 'denied' } });
  });

  it('validates a trusted payload against the contract', async () => {
    t = await createTestHost();
    const { handlers, ipcMain } = fakeIpcMain();
    bindHostToIpc(t.host, ipcMain, isTrusted);
    expect(await handlers.get(requestChannel('listServers'))?.(trustedEvent, {})).toEqual({
      ok: true,
      value: [],
    });
    expect(await handlers.get(requestChannel('stopServer'))?.(trustedEvent, { name: 42 })).toMatchObject({
      ok: false,
      error: { code: 'invalid_params' },
    });
  });

  it('forwards host events to the window on their channel, and not to a destroyed one', async () => {
    t = await createTestHost();
    const sent: [string, unknown][] = [];
    let destroyed = false;
    const window = {
      isDestroyed: () => destroyed,
      webContents: {
        isDestroyed: () => false,
        send: (channel: string, payload: unknown) => sent.push([channel, payload]),
      },
    } as unknown as BrowserWindow;
    const stop = forwardHostEvents(t.host, () => window);
    await t.api.reloadConfig({});
    expect(sent.map(([channel]) => channel)).toContain('host:evt:configChanged');
    sent.length = 0;
    destroyed = true;
    await t.api.reloadConfig({});
    expect(sent).toEqual([]);
    stop();
  });
});
