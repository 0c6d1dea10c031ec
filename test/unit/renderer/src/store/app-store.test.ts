import { describe, expect, it, vi } from 'vitest';
import type { ServerSnapshot } from '../../../../../shared/model/server.js';
import { createAppStore } from '../../../../../renderer/src/store/app-store.js';
import { toolCallOf } from '../../../../../renderer/src/store/reducers.js';
import type { Result } from '../../../../../shared/ipc/result.js';
import { fakeConnection, fakeHost, flush, ok } from '../../../../helpers/renderer/fake-host.js';

const snapshot = (name: string, status: ServerSnapshot['status'] = 'connected'): ServerSnapshot => ({
  name,
  transport: 'stdio',
  target: `node ${name}.js`,
  status,
  capabilities: { tools: true, resources: false, prompts: false, logging: false },
  tools: [],
  counts: { tools: 0, resources: 0, prompts: 0 },
  stderrTail: [],
});

/** A host that answers from memory and lets the test push events. */
function appHost() {
  return fakeHost({
    getAppInfo: vi.fn(() =>
      ok({ name: 'MCP Host', version: '0.1.0', shell: 'headless' as const, platform: 'linux' }),
    ),
    getConfigState: vi.fn(() => ok({ path: '/cfg.json' })),
    reloadConfig: vi.fn(() => ok({ path: '/cfg.json' })),
    listServers: vi.fn(() => ok([snapshot('a'), snapshot('b')])),
    removeServer: vi.fn(() => ok(null)),
    startServer: vi.fn((p: { name: string }) => ok(snapshot(p.name, 'connecting'))),
    stopServer: vi.fn((p: { name: string }) => ok(snapshot(p.name, 'stopped'))),
    restartServer: vi.fn((p: { name: string }) => ok(snapshot(p.name, 'connecting'))),
    signInServer: vi.fn((p: { name: string }) =>
      ok({
        ...snapshot(p.name, 'sign-in-required'),
        auth: { state: 'waiting' as const, waitingUntil: 1_000 },
      }),
    ),
    cancelSignIn: vi.fn((p: { name: string }): Promise<Result<ServerSnapshot>> =>
      ok({ ...snapshot(p.name, 'sign-in-required'), auth: { state: 'required' as const } }),
    ),
    signOutServer: vi.fn(() =>
      Promise.resolve({
        ok: false as const,
        error: { code: 'sign_in_required' as const, message: 'The authorization server is unreachable' },
      }),
    ),
    cancelToolCall: vi.fn(() => ok(true)),
    callTool: vi.fn(
      (): Promise<
        Result<{ isError: boolean; content: { type: 'text'; text: string }[]; durationMs: number }>
      > => ok({ isError: false, content: [{ type: 'text', text: 'Echo: hi' }], durationMs: 3 }),
    ),
    // Logs and configuration requests (issue 3, part C): not used by the app store.
    getServerLogs: vi.fn(() => ok({ entries: [] })),
    setLogLevel: vi.fn(() => ok(null)),
    getServerInput: vi.fn((p: { name: string }) =>
      ok({ transport: 'stdio' as const, name: p.name, command: 'x', args: [], env: {} }),
    ),
    saveServer: vi.fn((p: { input: { name: string } }) => ok(snapshot(p.input.name, 'connecting'))),
    setServerEnabled: vi.fn((p: { name: string }) => ok(snapshot(p.name, 'disabled'))),
    setToolEnabled: vi.fn((p: { name: string }) => ok(snapshot(p.name))),
    getRawConfig: vi.fn(() => ok({ path: '/cfg.json', text: '{}' })),
    saveRawConfig: vi.fn(() => ok({ path: '/cfg.json' })),
    listImportLocations: vi.fn(() => ok([])),
    previewImport: vi.fn(() => ok({ source: 'pasted' as const, servers: [], inputs: [] })),
    importServers: vi.fn(() => ok({ imported: [], declined: [] })),
  });
}

describe('createAppStore', () => {
  it('loads the snapshot once connected, and again after every reconnect', async () => {
    const { host } = appHost();
    const link = fakeConnection('connecting');
    const { store } = createAppStore(host, link.connection);
    await flush();
    expect(host.listServers).not.toHaveBeenCalled();

    link.set('connected');
    await flush();
    expect(store.getState()).toMatchObject({ loaded: true, serverNames: ['a', 'b'], selectedServer: 'a' });
    expect(store.getState().configState).toEqual({ path: '/cfg.json' });

    link.set('reconnecting');
    expect(store.getState().connection).toBe('reconnecting');
    host.listServers.mockImplementation(() => ok([snapshot('b')]));
    link.set('connected');
    await flush();
    expect(host.listServers).toHaveBeenCalledTimes(2);
    expect(store.getState()).toMatchObject({ serverNames: ['b'], selectedServer: 'b' });
  });

  it('applies serverChanged, serverRemoved and configChanged', async () => {
    const { host, emit } = appHost();
    const { store } = createAppStore(host, fakeConnection('connected').connection);
    await flush();
    emit('serverChanged', snapshot('a', 'failed'));
    emit('serverChanged', snapshot('c'));
    emit('serverRemoved', { name: 'b' });
    emit('configChanged', { path: '/cfg.json', error: 'mcpServers.x: bad' });
    const state = store.getState();
    expect(state.serverNames).toEqual(['a', 'c']);
    expect(state.servers.a?.status).toBe('failed');
    expect(state.configState?.error).toBe('mcpServers.x: bad');
  });

  it('sign-in and sign-out apply the snapshot the host answers with (cancel leaves it to the event), and pass errors on', async () => {
    const { host, emit } = appHost();
    const { store } = createAppStore(host, fakeConnection('connected').connection);
    await flush();
    const { signInServer, cancelSignIn, signOutServer } = store.getState().actions;

    expect((await signInServer('a')).ok).toBe(true);
    expect(host.signInServer).toHaveBeenCalledWith({ name: 'a' });
    expect(store.getState().servers.a).toMatchObject({
      status: 'sign-in-required',
      auth: { state: 'waiting' },
    });

    // The event that ends the wait may come before cancel's answer, which still says "waiting".
    emit('serverChanged', { ...snapshot('a', 'sign-in-required'), auth: { state: 'required' } });
    host.cancelSignIn.mockImplementationOnce((p: { name: string }) =>
      ok({ ...snapshot(p.name, 'sign-in-required'), auth: { state: 'waiting' as const } }),
    );
    expect((await cancelSignIn('a')).ok).toBe(true);
    expect(host.cancelSignIn).toHaveBeenCalledWith({ name: 'a' });
    expect(store.getState().servers.a?.auth).toEqual({ state: 'required' });

    const failed = await signOutServer('a');
    expect(failed).toMatchObject({ ok: false, error: { code: 'sign_in_required' } });
    expect(store.getState().servers.a?.auth).toEqual({ state: 'required' });
  });

  it('catches malformed JSON before calling, and stores host errors and results', async () => {
    const { host } = appHost();
    const { store } = createAppStore(host, fakeConnection('connected').connection);
    const { callTool } = store.getState().actions;

    await callTool('a', 'echo', '{"message": ');
    expect(host.callTool).not.toHaveBeenCalled();
    expect(toolCallOf(store.getState(), 'a', 'echo').error).toMatchObject({ kind: 'json' });

    host.callTool.mockImplementationOnce(() =>
      Promise.resolve({
        ok: false,
        error: { code: 'invalid_arguments', message: 'message: must be string' },
      }),
    );
    await callTool('a', 'echo', '{"message": 42}');
    expect(toolCallOf(store.getState(), 'a', 'echo')).toMatchObject({
      running: false,
      result: undefined,
      error: { kind: 'host', code: 'invalid_arguments', message: 'message: must be string' },
    });

    await callTool('a', 'echo', '{"message": "hi"}');
    expect(host.callTool).toHaveBeenLastCalledWith({
      server: 'a',
      tool: 'echo',
      argumentsJson: '{"message": "hi"}',
      callId: expect.stringMatching(/^[0-9a-f-]{36}$/) as unknown,
    });
    expect(toolCallOf(store.getState(), 'a', 'echo')).toMatchObject({
      running: false,
      error: undefined,
      argumentsText: '{"message": "hi"}',
      result: { content: [{ type: 'text', text: 'Echo: hi' }] },
    });
  });
});
