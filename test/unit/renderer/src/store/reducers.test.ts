import { describe, expect, it } from 'vitest';
import type { ServerSnapshot } from '../../../../../shared/model/server.js';
import type { AppData } from '../../../../../renderer/src/store/app-state.js';
import {
  patchToolCall,
  removeServer,
  replaceServers,
  toolCallOf,
  upsertServer,
} from '../../../../../renderer/src/store/reducers.js';

const snapshot = (name: string, status: ServerSnapshot['status'] = 'connected'): ServerSnapshot => ({
  name,
  transport: 'stdio',
  target: 'node server.js',
  status,
  capabilities: { tools: true, resources: false, prompts: false, logging: false },
  tools: [],
  counts: { tools: 0, resources: 0, prompts: 0 },
  stderrTail: [],
});

type Slice = Pick<AppData, 'serverNames' | 'servers' | 'selectedServer' | 'selectedTool' | 'toolCalls'> &
  Partial<Pick<AppData, 'serverTab'>>;
const empty: Slice = {
  serverNames: [],
  servers: {},
  selectedServer: undefined,
  selectedTool: undefined,
  toolCalls: {},
};
const apply = (state: Slice, patch: Partial<Slice>): Slice => ({ ...state, ...patch });

describe('store reducers', () => {
  it('appends new servers, replaces known ones in place, and selects the first', () => {
    let state = apply(empty, upsertServer(empty, snapshot('a', 'connecting')));
    state = apply(state, upsertServer(state, snapshot('b')));
    state = apply(state, upsertServer(state, snapshot('a')));
    expect(state.serverNames).toEqual(['a', 'b']);
    expect(state.servers.a?.status).toBe('connected');
    expect(state.selectedServer).toBe('a');
  });

  it('removing the selected server selects its neighbour and drops its tool drafts', () => {
    let state = apply(empty, replaceServers(empty, [snapshot('a'), snapshot('b'), snapshot('c')]));
    state = apply(state, { selectedServer: 'c', selectedTool: 'echo' });
    state = apply(state, patchToolCall(state, 'c', 'echo', { argumentsText: '{}' }));
    state = apply(state, removeServer(state, 'c'));
    expect(state.serverNames).toEqual(['a', 'b']);
    expect(state.selectedServer).toBe('b');
    expect(state.selectedTool).toBeUndefined();
    expect(toolCallOf(state, 'c', 'echo').argumentsText).toBeUndefined();
  });

  it('another server selected because the selected one went away opens on its Tools, not on the old tab', () => {
    let state = apply(empty, replaceServers(empty, [snapshot('a'), snapshot('b')]));
    state = apply(state, { selectedServer: 'b', serverTab: 'settings' });
    const removed = apply(state, removeServer(state, 'b'));
    expect([removed.selectedServer, removed.serverTab]).toEqual(['a', undefined]);
    const replaced = apply(state, replaceServers(state, [snapshot('a')]));
    expect([replaced.selectedServer, replaced.serverTab]).toEqual(['a', undefined]);
    const kept = apply(state, replaceServers(state, [snapshot('b')]));
    expect([kept.selectedServer, kept.serverTab]).toEqual(['b', 'settings']);
  });

  it('a full list keeps the selection when the server still exists', () => {
    let state = apply(empty, replaceServers(empty, [snapshot('a'), snapshot('b')]));
    state = apply(state, { selectedServer: 'b', selectedTool: 'echo' });
    expect(replaceServers(state, [snapshot('b')])).toMatchObject({
      selectedServer: 'b',
      selectedTool: 'echo',
    });
    expect(replaceServers(state, [snapshot('z')])).toMatchObject({
      selectedServer: 'z',
      selectedTool: undefined,
    });
  });
});
