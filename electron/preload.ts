import { contextBridge, ipcRenderer } from 'electron';
import type { IpcRendererEvent } from 'electron';
import { REQUEST_NAMES, eventChannel, isEventName, requestChannel } from '../shared/ipc/names.js';
import type { EventName, RequestName } from '../shared/ipc/names.js';
import type { EventPayload } from '../shared/ipc/contract.js';
import type { HostApi, HostEventListener, HostRequests } from '../shared/ipc/host-api.js';
import type { Result } from '../shared/ipc/result.js';

/*
 * The renderer's only door to the host: `window.host`, derived from the IPC
 * contract. It exposes verbs, never `ipcRenderer` itself, and hands listeners
 * the event payload only, never the IpcRendererEvent (whose `sender` would
 * give the page a raw IPC handle).
 */

function request(name: RequestName): (params: unknown) => Promise<Result<unknown>> {
  const channel = requestChannel(name);
  return async (params) => {
    try {
      return (await ipcRenderer.invoke(channel, params)) as Result<unknown>;
    } catch (error) {
      // Only reached when the main process has no handler (still starting, or
      // shutting down) or the params cannot be cloned: still an error value.
      const message = error instanceof Error ? error.message : String(error);
      return {
        ok: false,
        error: { code: 'internal', message: `${name} failed: ${message.replace(/\s+/g, ' ').slice(0, 300)}` },
      };
    }
  };
}

function on<E extends EventName>(event: E, listener: HostEventListener<E>): () => void {
  // The page is untrusted: at run time `event` may be anything, whatever its type says.
  const name: unknown = event;
  if (!isEventName(name)) throw new TypeError(`Unknown host event: ${String(name).slice(0, 64)}`);
  const channel = eventChannel(event);
  const forward = (_event: IpcRendererEvent, payload: EventPayload<E>): void => {
    try {
      listener(payload);
    } catch (error) {
      // One failing subscriber must not keep the event from the others.
      console.error(`A listener for ${event} failed:`, error);
    }
  };
  ipcRenderer.on(channel, forward);
  return () => {
    ipcRenderer.removeListener(channel, forward);
  };
}

// The mapped type HostRequests cannot be built by a loop without a cast; the
// keys and channels come from the same contract table the type is derived from.
const requests = Object.fromEntries(
  REQUEST_NAMES.map((name) => [name, request(name)]),
) as unknown as HostRequests;

const api: HostApi = { ...requests, on };

contextBridge.exposeInMainWorld('host', api);
