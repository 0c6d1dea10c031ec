import { createStore } from 'zustand/vanilla';
import type { StoreApi } from 'zustand/vanilla';
import type { HostApi } from '../../../../shared/ipc/host-api.js';
import type { HostErrorValue, Result } from '../../../../shared/ipc/result.js';
import type { LogEntry, LogLevel } from '../../../../shared/model/logs.js';

/** Entries kept per server in the window; the host keeps the same bound. */
export const MAX_LOG_ENTRIES = 5000;

export interface ServerLogView {
  readonly entries: readonly LogEntry[];
  /** The level last set with logging/setLevel on the current connection. */
  readonly level: LogLevel | undefined;
  readonly loaded: boolean;
  readonly error: HostErrorValue | undefined;
  /** Lines the host left out of its live batches since the last load (a flood); load() fetches them. */
  readonly skipped: number;
}

export interface LogsState {
  readonly logs: Readonly<Record<string, ServerLogView>>;
  readonly actions: {
    /** Fetches the host's kept log of a server (on first view and after reconnects). */
    load: (server: string) => Promise<void>;
    setLevel: (server: string, level: LogLevel) => Promise<Result<null>>;
  };
}

const EMPTY: ServerLogView = { entries: [], level: undefined, loaded: false, error: undefined, skipped: 0 };

/** Appends entries newer than the last one held (events and a fetch may overlap), keeping the bound. */
export function mergeEntries(
  current: readonly LogEntry[],
  incoming: readonly LogEntry[],
): readonly LogEntry[] {
  const last = current.at(-1)?.seq ?? 0;
  const fresh = incoming.filter((e) => e.seq > last);
  if (fresh.length === 0) return current;
  const merged = [...current, ...fresh];
  return merged.length > MAX_LOG_ENTRIES ? merged.slice(merged.length - MAX_LOG_ENTRIES) : merged;
}

/** The logs slice: per server, the entries the host pushed with `serverLog`, plus the set level. */
export function createLogsStore(host: HostApi): { store: StoreApi<LogsState>; dispose: () => void } {
  const store = createStore<LogsState>()((set, get) => {
    const patch = (server: string, change: Partial<ServerLogView>) => {
      set((s) => ({ logs: { ...s.logs, [server]: { ...(s.logs[server] ?? EMPTY), ...change } } }));
    };
    return {
      logs: {},
      actions: {
        async load(server) {
          const result = await host.getServerLogs({ name: server });
          if (!result.ok) {
            patch(server, { error: result.error, loaded: true });
            return;
          }
          const held = get().logs[server]?.entries ?? [];
          const first = result.value.entries[0]?.seq ?? 0;
          // Newer events may already be held; keep them after the fetched history.
          const entries =
            held.length > 0 && (held[0]?.seq ?? 0) >= first
              ? mergeEntries(result.value.entries, held)
              : result.value.entries;
          patch(server, { entries, level: result.value.level, loaded: true, error: undefined, skipped: 0 });
        },
        async setLevel(server, level) {
          const result = await host.setLogLevel({ name: server, level });
          if (result.ok) patch(server, { level });
          return result;
        },
      },
    };
  });

  const unsubscribes = [
    host.on('serverLog', ({ server, entries, skipped }) => {
      const view = store.getState().logs[server] ?? EMPTY;
      const next = {
        ...view,
        entries: mergeEntries(view.entries, entries),
        skipped: view.skipped + (skipped ?? 0),
      };
      store.setState((s) => ({ logs: { ...s.logs, [server]: next } }));
    }),
    host.on('serverRemoved', ({ name }) => {
      store.setState((s) => ({
        logs: Object.fromEntries(Object.entries(s.logs).filter(([n]) => n !== name)),
      }));
    }),
    host.on('serverChanged', (snapshot) => {
      // A new connection starts with the server's default level.
      if (snapshot.status === 'connecting' && store.getState().logs[snapshot.name]?.level !== undefined) {
        store.setState((s) => {
          const view = s.logs[snapshot.name] ?? EMPTY;
          return { logs: { ...s.logs, [snapshot.name]: { ...view, level: undefined } } };
        });
      }
    }),
  ];
  return {
    store,
    dispose() {
      for (const unsubscribe of unsubscribes) unsubscribe();
    },
  };
}
