import { createStore } from 'zustand/vanilla';
import type { StoreApi } from 'zustand/vanilla';
import type { HostConnection } from '../bridge/connection.js';
import type { HostApi } from '../../../shared/ipc/host-api.js';
import type { AppActions, AppState } from './app-state.js';
import type { AppInfo } from '../../../shared/model/app.js';
import { checkArgumentsJson } from './arguments-json.js';
import { patchToolCall, removeServer, replaceServers, toolCallOf, upsertServer } from './reducers.js';
import { applyToolCallProgress, newCallId } from './tool-call-progress.js';

/** The store plus the function that detaches it from the host. */
export interface AppStore {
  readonly store: StoreApi<AppState>;
  dispose(): void;
}

/**
 * Creates the renderer's one store, bound to a host. It fetches the full
 * snapshot whenever the connection becomes "connected" (at start and after
 * every reconnect, since events may have been missed) and applies the host's
 * events in between.
 */
export function createAppStore(host: HostApi, connection: HostConnection): AppStore {
  const store = createStore<AppState>()((set, get) => {
    const applySnapshot = (result: Awaited<ReturnType<HostApi['startServer']>>): void => {
      if (result.ok) set((s) => upsertServer(s, result.value));
    };

    const actions: AppActions = {
      dismissHostRestarted() {
        set({ hostRestartedAt: undefined });
      },
      selectServer(name, tab) {
        if (get().selectedServer === name) {
          if (tab !== undefined) set({ serverTab: tab });
          return;
        }
        set({ selectedServer: name, selectedTool: undefined, serverTab: tab });
      },
      selectServerTab(tab) {
        set({ serverTab: tab });
      },
      selectTool(name) {
        set({ selectedTool: name });
      },
      async startServer(name) {
        const result = await host.startServer({ name });
        applySnapshot(result);
        return result;
      },
      async stopServer(name) {
        const result = await host.stopServer({ name });
        applySnapshot(result);
        return result;
      },
      async restartServer(name) {
        const result = await host.restartServer({ name });
        applySnapshot(result);
        return result;
      },
      async signInServer(name) {
        const result = await host.signInServer({ name });
        applySnapshot(result);
        return result;
      },
      async cancelSignIn(name) {
        // Not applied: the answer is taken while the browser wait is still winding down, and
        // can arrive after the serverChanged event that ends it; that event carries the state.
        return host.cancelSignIn({ name });
      },
      async signOutServer(name) {
        const result = await host.signOutServer({ name });
        applySnapshot(result);
        return result;
      },
      async cancelToolCall(server, tool) {
        const { callId, running } = toolCallOf(get(), server, tool);
        if (!running || callId === undefined) return;
        set((s) => patchToolCall(s, server, tool, { cancelling: true }));
        // The call itself then ends with a "cancelled" error; false means it had finished first.
        await host.cancelToolCall({ callId });
      },
      async removeServer(name) {
        const result = await host.removeServer({ name });
        if (result.ok) set((s) => removeServer(s, name));
        return result;
      },
      async reloadConfig() {
        const result = await host.reloadConfig({});
        if (result.ok) set({ configState: result.value });
        return result;
      },
      setToolArguments(server, tool, text) {
        set((s) => patchToolCall(s, server, tool, { argumentsText: text }));
      },
      async callTool(server, tool, argumentsText) {
        if (toolCallOf(get(), server, tool).running) return;
        const checked = checkArgumentsJson(argumentsText);
        if (!checked.ok) {
          set((s) =>
            patchToolCall(s, server, tool, {
              argumentsText,
              result: undefined,
              error: { kind: 'json', message: checked.message },
            }),
          );
          return;
        }
        const callId = newCallId();
        set((s) =>
          patchToolCall(s, server, tool, {
            argumentsText,
            running: true,
            callId,
            progress: undefined,
            cancelling: false,
            result: undefined,
            error: undefined,
          }),
        );
        const result = await host.callTool({ server, tool, argumentsJson: checked.json, callId });
        const done = { running: false, callId: undefined, progress: undefined, cancelling: false };
        set((s) =>
          patchToolCall(
            s,
            server,
            tool,
            result.ok
              ? { ...done, result: result.value }
              : {
                  ...done,
                  error: { kind: 'host', code: result.error.code, message: result.error.message },
                },
          ),
        );
      },
    };

    return {
      connection: connection.getState(),
      connectionHint: connection.hint,
      loaded: false,
      loadError: undefined,
      appInfo: undefined,
      hostRestartedAt: undefined,
      configState: undefined,
      serverNames: [],
      servers: {},
      selectedServer: undefined,
      selectedTool: undefined,
      serverTab: undefined,
      toolCalls: {},
      actions,
    };
  });

  const { setState } = store;

  async function load(): Promise<void> {
    const [servers, configState, appInfo] = await Promise.all([
      host.listServers({}),
      host.getConfigState({}),
      host.getAppInfo({}),
    ]);
    // A lost connection is shown by the banner; the next "connected" loads again.
    const failure = [servers, configState, appInfo].find((r) => !r.ok && r.error.code !== 'not_connected');
    setState((s) => ({
      ...(servers.ok ? replaceServers(s, servers.value) : {}),
      ...(configState.ok ? { configState: configState.value } : {}),
      ...(appInfo.ok
        ? {
            appInfo: appInfo.value,
            ...(restarted(s.appInfo, appInfo.value) ? { hostRestartedAt: appInfo.value.startedAt } : {}),
          }
        : {}),
      loaded: s.loaded || (servers.ok && configState.ok),
      loadError: failure && !failure.ok ? failure.error : undefined,
    }));
  }

  function reload(): void {
    // Fire and forget: load() never rejects (every request answers with a Result).
    void load();
  }

  const unsubscribes = [
    host.on('serverChanged', (snapshot) => {
      setState((s) => upsertServer(s, snapshot));
    }),
    host.on('serverRemoved', ({ name }) => {
      setState((s) => removeServer(s, name));
    }),
    host.on('configChanged', (configState) => {
      setState({ configState });
    }),
    host.on('toolCallProgress', (progress) => {
      setState((s) => applyToolCallProgress(s, progress));
    }),
    connection.subscribe((state) => {
      setState({ connection: state });
      if (state === 'connected') reload();
    }),
  ];
  if (connection.getState() === 'connected') reload();

  return {
    store,
    dispose() {
      for (const unsubscribe of unsubscribes) unsubscribe();
    },
  };
}

/** A host process other than the one the page knew (each start has its own instance id). */
function restarted(known: AppInfo | undefined, now: AppInfo): boolean {
  return known?.instanceId !== undefined && now.instanceId !== known.instanceId;
}
