import type { ServerSnapshot } from '../../../shared/model/server.js';
import type { AppData, ToolCallState } from './app-state.js';

/**
 * Pure state transitions, kept apart from the store so they read (and test)
 * without a host.
 */

type ServersSlice = Pick<
  AppData,
  'serverNames' | 'servers' | 'selectedServer' | 'selectedTool' | 'toolCalls'
> &
  Partial<Pick<AppData, 'serverTab'>>;

export const EMPTY_TOOL_CALL: ToolCallState = {
  argumentsText: undefined,
  running: false,
  result: undefined,
  error: undefined,
};

/** A server appeared or changed: replace its snapshot, append it if new. */
export function upsertServer(state: ServersSlice, snapshot: ServerSnapshot): Partial<ServersSlice> {
  const known = snapshot.name in state.servers;
  return {
    servers: { ...state.servers, [snapshot.name]: snapshot },
    serverNames: known ? state.serverNames : [...state.serverNames, snapshot.name],
    selectedServer: state.selectedServer ?? snapshot.name,
  };
}

/** A server is gone: drop it and its tool drafts, and select a neighbour if it was selected. */
export function removeServer(state: ServersSlice, name: string): Partial<ServersSlice> {
  if (!(name in state.servers)) return {};
  const index = state.serverNames.indexOf(name);
  const serverNames = state.serverNames.filter((n) => n !== name);
  const servers = Object.fromEntries(Object.entries(state.servers).filter(([n]) => n !== name));
  const toolCalls = Object.fromEntries(Object.entries(state.toolCalls).filter(([n]) => n !== name));
  if (state.selectedServer !== name) return { serverNames, servers, toolCalls };
  const neighbour = serverNames[Math.min(index, serverNames.length - 1)];
  return {
    serverNames,
    servers,
    toolCalls,
    selectedServer: neighbour,
    selectedTool: undefined,
    serverTab: undefined,
  };
}

/** A full list from the host (start, reconnect): replace everything, keep the selection if it still exists. */
export function replaceServers(
  state: ServersSlice,
  snapshots: readonly ServerSnapshot[],
): Partial<ServersSlice> {
  const servers = Object.fromEntries(snapshots.map((s) => [s.name, s]));
  const serverNames = snapshots.map((s) => s.name);
  const keep = state.selectedServer !== undefined && state.selectedServer in servers;
  return {
    servers,
    serverNames,
    selectedServer: keep ? state.selectedServer : serverNames[0],
    selectedTool: keep ? state.selectedTool : undefined,
    serverTab: keep ? state.serverTab : undefined,
  };
}

/** One tool's entry, or the empty one. */
export function toolCallOf(state: Pick<AppData, 'toolCalls'>, server: string, tool: string): ToolCallState {
  return state.toolCalls[server]?.[tool] ?? EMPTY_TOOL_CALL;
}

/** Merges `patch` into one tool's entry. */
export function patchToolCall(
  state: Pick<AppData, 'toolCalls'>,
  server: string,
  tool: string,
  patch: Partial<ToolCallState>,
): Pick<AppData, 'toolCalls'> {
  const next = { ...toolCallOf(state, server, tool), ...patch };
  return { toolCalls: { ...state.toolCalls, [server]: { ...state.toolCalls[server], [tool]: next } } };
}
