import type { HostApi } from '../../../shared/ipc/host-api.js';
import { WS_PATH } from '../../../shared/ipc/wire-constants.js';
import { alwaysConnected } from './connection.js';
import type { HostConnection } from './connection.js';
import { createWebSocketBridge } from './ws-bridge.js';

let current: { api: HostApi; connection: HostConnection } | undefined;

function resolveHost(): { api: HostApi; connection: HostConnection } {
  if (!current) {
    // Electron's preload exposes the HostApi; a browser served by the headless shell does not.
    current = window.host
      ? { api: window.host, connection: alwaysConnected }
      : createWebSocketBridge(headlessSocket(window.location));
  }
  return current;
}

/** The host this renderer talks to: `window.host` in Electron, else the headless WebSocket bridge. */
export function getHost(): HostApi {
  return resolveHost().api;
}

/** The connection state of the pipe behind getHost(). */
export function getHostConnection(): HostConnection {
  return resolveHost().connection;
}

/**
 * Where the headless shell that served this page listens. The socket is
 * authenticated by the page's HttpOnly cookie (set when the sign-in link was
 * opened); the page itself never sees a credential.
 */
export function headlessSocket(location: Pick<Location, 'protocol' | 'host'>): {
  url: string;
  hint: string | undefined;
} {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return {
    url: `${scheme}://${location.host}${WS_PATH}`,
    // The page was served, so it is signed in; the banner's own words say what to expect.
    hint: undefined,
  };
}
