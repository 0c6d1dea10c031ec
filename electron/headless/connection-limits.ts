import type { Server } from 'node:http';

/** TCP connections at once per loopback server, authenticated or not (page loads, sockets, strays). */
export const MAX_CONNECTIONS = 64;

/**
 * Limits every loopback server of the shell shares (the page's and the apps'
 * sandbox origin): a bounded number of connections, none held open for long
 * by a request that never finishes its headers, and a malformed request ends
 * its own connection only.
 */
export function boundConnections(http: Server): void {
  http.maxConnections = MAX_CONNECTIONS;
  http.headersTimeout = 10_000;
  http.requestTimeout = 30_000;
  http.on('clientError', (_error, socket) => {
    socket.destroy();
  });
}
