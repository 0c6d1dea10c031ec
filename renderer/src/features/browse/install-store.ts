import { createStore } from 'zustand/vanilla';
import type { StoreApi } from 'zustand/vanilla';
import { loadOnEveryConnect } from '../../bridge/connection.js';
import type { HostConnection } from '../../bridge/connection.js';
import type { HostApi } from '../../../../shared/ipc/host-api.js';
import type { PendingInstall } from '../../../../shared/model/registry.js';

export interface InstallState {
  /** Installs that came from links, oldest first: each waits for the person to confirm or close it. */
  readonly fromLinks: readonly PendingInstall[];
}

export interface InstallStore {
  readonly store: StoreApi<InstallState>;
  dispose(): void;
}

/**
 * Installs received from `mcp-host://install?…` links, a view of the host's
 * pending installs: filled from listPendingInstalls on every (re)connect,
 * then kept by installRequested / installResolved. The renderer never makes
 * one: only the host receives links.
 */
export function createInstallStore(host: HostApi, connection: HostConnection): InstallStore {
  const store = createStore<InstallState>()(() => ({ fromLinks: [] }));
  const { setState } = store;
  const unsubscribes = [
    host.on('installRequested', (pending) => {
      setState((s) =>
        s.fromLinks.some((p) => p.id === pending.id) ? s : { fromLinks: [...s.fromLinks, pending] },
      );
    }),
    host.on('installResolved', ({ id }) => {
      setState((s) => ({ fromLinks: s.fromLinks.filter((p) => p.id !== id) }));
    }),
    loadOnEveryConnect(connection, async () => {
      const result = await host.listPendingInstalls({});
      if (result.ok) setState({ fromLinks: result.value });
    }),
  ];
  return {
    store,
    dispose() {
      for (const unsubscribe of unsubscribes) unsubscribe();
    },
  };
}
