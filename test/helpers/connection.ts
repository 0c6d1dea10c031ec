import { ServerConnection } from '../../electron/host/servers/server-connection.js';
import type { ConnectionOptions } from '../../electron/host/servers/server-connection.js';
import type { ServerConfig } from '../../shared/model/config.js';
import type { ServerSnapshot } from '../../shared/model/server.js';

const open: ServerConnection[] = [];

/**
 * One ServerConnection outside a host (fixed environment: this PATH), with
 * every snapshot it reports recorded. Call `stopConnections` in afterEach.
 */
export function openConnection(
  config: ServerConfig,
  options: Partial<ConnectionOptions> = {},
  name = 'fixture',
): { connection: ServerConnection; snapshots: ServerSnapshot[] } {
  const snapshots: ServerSnapshot[] = [];
  const connection = new ServerConnection(name, config, {
    appVersion: '0.0.0-test',
    environment: () => Promise.resolve({ all: { PATH: process.env.PATH ?? '' }, source: 'fixed' }),
    onChange: (snapshot) => snapshots.push(snapshot),
    ...options,
  });
  open.push(connection);
  return { connection, snapshots };
}

/** Stops every connection `openConnection` opened since the last call. */
export async function stopConnections(): Promise<void> {
  await Promise.all(open.splice(0).map((c) => c.stop()));
}

/** Resolves with the first recorded snapshot, from index `from` on (default: from now on), that satisfies `predicate`. */
export function nextSnapshot(
  snapshots: ServerSnapshot[],
  predicate: (s: ServerSnapshot) => boolean,
  from = snapshots.length,
): Promise<ServerSnapshot> {
  return new Promise((resolve) => {
    const poll = setInterval(() => {
      const hit = snapshots.slice(from).find(predicate);
      if (hit) {
        clearInterval(poll);
        resolve(hit);
      }
    }, 20);
  });
}
