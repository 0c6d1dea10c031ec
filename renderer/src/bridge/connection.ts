/**
 * Whether the renderer can currently reach the host. Electron's IPC never
 * drops, so there it is always "connected"; the headless WebSocket can.
 *   connecting   — the first connection attempt is under way
 *   connected    — requests and events flow
 *   reconnecting — the connection was lost (or never made); retrying with backoff
 *   failed       — the page cannot check what the host sends (a part of it did not
 *                  load), so it stopped talking to the host until it is reloaded
 */
export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'failed';

/** An observable connection state, read by the store and shown as a banner. */
export interface HostConnection {
  getState(): ConnectionState;
  /** Called on every change; returns the function that unsubscribes. */
  subscribe(listener: (state: ConnectionState) => void): () => void;
  /** Something the person can do about a lost connection, if we know it. */
  readonly hint: string | undefined;
}

/** The connection of a pipe that cannot drop (Electron IPC). */
export const alwaysConnected: HostConnection = {
  getState: () => 'connected',
  subscribe: () => () => undefined,
  hint: undefined,
};

/**
 * Runs `load` now if the host is reachable and again after every
 * (re)connect, since events may have been missed meanwhile. Returns the
 * function that stops it.
 */
export function loadOnEveryConnect(connection: HostConnection, load: () => Promise<void>): () => void {
  const unsubscribe = connection.subscribe((state) => {
    if (state === 'connected') void load();
  });
  if (connection.getState() === 'connected') void load();
  return unsubscribe;
}
