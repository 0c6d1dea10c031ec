import type { BrowserWindow, IpcMain, IpcMainInvokeEvent } from 'electron';
import { eventChannel, requestChannel, requestNames } from '../shared/ipc/contract.js';
import { err } from '../shared/ipc/result.js';
import type { Result } from '../shared/ipc/result.js';
import { describeError } from './host/errors.js';
import type { Host } from './host/host-types.js';
import { dispatch } from './host/ipc/dispatch.js';

/**
 * The Electron pipe of the IPC contract: one `ipcMain.handle` per request,
 * generic over `requestNames`, so adding a request to the contract needs no
 * change here. Every invocation is checked against `isTrustedSender` before
 * its payload is even looked at; `dispatch` then validates it with the
 * contract's schema. Returns the function that removes the handlers.
 */
export function bindHostToIpc(
  host: Host,
  ipcMain: IpcMain,
  isTrustedSender: (event: IpcMainInvokeEvent) => boolean,
): () => void {
  const channels = requestNames.map((name) => {
    const channel = requestChannel(name);
    ipcMain.handle(channel, (event: IpcMainInvokeEvent, params: unknown): Promise<Result<unknown>> => {
      if (!trusted(isTrustedSender, event)) {
        return Promise.resolve(err('denied', 'Request from an untrusted frame'));
      }
      return dispatch(host.handlers, name, params);
    });
    return channel;
  });
  return () => {
    for (const channel of channels) ipcMain.removeHandler(channel);
  };
}

/**
 * Pushes every host event to the window `getWindow` returns at that moment,
 * on the event's channel. Nothing is sent when there is no window or it is
 * being torn down. Returns the function that stops forwarding.
 */
export function forwardHostEvents(host: Host, getWindow: () => BrowserWindow | null): () => void {
  return host.onEvent((name, payload) => {
    const window = getWindow();
    if (!window || window.isDestroyed() || window.webContents.isDestroyed()) return;
    try {
      window.webContents.send(eventChannel(name), payload);
    } catch (error) {
      // A payload that cannot be cloned is a host bug; losing one event must not take the host down.
      console.error(`Could not forward the host event ${name}: ${describeError(error)}`);
    }
  });
}

/** A sender check that throws (e.g. on a frame torn down mid-check) counts as untrusted. */
function trusted(check: (event: IpcMainInvokeEvent) => boolean, event: IpcMainInvokeEvent): boolean {
  try {
    return check(event);
  } catch {
    return false;
  }
}
