import type { HostApi } from '../../../shared/ipc/host-api.js';
import { TOKEN_PARAM, WS_PATH } from '../../../shared/ipc/wire-constants.js';
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

/** Where the headless shell that served this page listens, with the session token from our URL. */
export function headlessSocket(location: Pick<Location, 'protocol' | 'host' | 'search'>): {
  url: string;
  hint: string | undefined;
} {
  const token = new URLSearchParams(location.search).get(TOKEN_PARAM);
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const query = token === null ? '' : `?${TOKEN_PARAM}=${encodeURIComponent(token)}`;
  return {
    url: `${scheme}://${location.host}${WS_PATH}${query}`,
    hint:
      token === null
        ? 'This address has no session token. Open the full address that "mcp-host serve" printed.'
        : undefined,
  };
}
