import { describe, expect, it, vi } from 'vitest';
import type { EventName, EventPayload } from '../../../shared/ipc/contract.js';
import type { HostApi, HostEventListener, HostRequests } from '../../../shared/ipc/host-api.js';
import { REQUEST_NAMES } from '../../../shared/ipc/names.js';
import type { Result } from '../../../shared/ipc/result.js';
import type { ServerSnapshot } from '../../../shared/model/server.js';
import type { ConnectionState, HostConnection } from '../bridge/connection.js';
import { createAppStore } from './app-store.js';
import { toolCallOf } from './reducers.js';

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

const ok = <T>(value: T): Promise<Result<T>> => Promise.resolve({ ok: true, value });
/** For requests this store never makes. */
const unused = (): Promise<Result<never>> =>
  Promise.resolve({ ok: false, error: { code: 'internal', message: 'not used by the app store' } });
const flush = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/** Requests a test does not fake answer with an error, so new contract rows don't break these tests. */
const notFaked = Object.fromEntries(
  REQUEST_NAMES.map((name) => [
    name,
    vi.fn(() => Promise.resolve({ ok: false, error: { code: 'internal', message: `${name} is not faked` } })),
  ]),
) as unknown as HostRequests;

/** A host that answers from memory and lets the test push events. */
function fakeHost() {
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  const host = {
    ...notFaked,
    getAppInfo: vi.fn(() =>
      ok({ name: 'MCP Host', version: '0.1.0', shell: 'headless' as const, platform: 'linux' }),
    ),
    getConfigState: vi.fn(() => ok({ path: '/cfg.json' })),
    reloadConfig: vi.fn(() => ok({ path: '/cfg.json' })),
    listServers: vi.fn(() => ok([snapshot('a'), snapshot('b')])),
    addServer: vi.fn((input: { name: string }) => ok(snapshot(input.name, 'connecting'))),
    removeServer: vi.fn(() => ok(null)),
    startServer: vi.fn((p: { name: string }) => ok(snapshot(p.name, 'connecting'))),
    stopServer: vi.fn((p: { name: string }) => ok(snapshot(p.name, 'stopped'))),
    callTool: vi.fn(
      (): Promise<
        Result<{ isError: boolean; content: { type: 'text'; text: string }[]; durationMs: number }>
      > => ok({ isError: false, content: [{ type: 'text', text: 'Echo: hi' }], durationMs: 3 }),
    ),
    listResources: unused,
    listPrompts: unused,
    readResource: unused,
    subscribeResource: unused,
    unsubscribeResource: unused,
    complete: unused,
    getPrompt: unused,
    listRoots: unused,
    addRoot: unused,
    pickRoot: unused,
    removeRoot: unused,
    on<E extends EventName>(event: E, listener: HostEventListener<E>): () => void {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      const wrapped = listener as (payload: unknown) => void;
      set.add(wrapped);
      return () => set.delete(wrapped);
    },
  } satisfies HostApi;
  const emit = <E extends EventName>(event: E, payload: EventPayload<E>): void => {
    for (const listener of listeners.get(event) ?? []) listener(payload);
  };
  return { host, emit };
}

function fakeConnection(initial: ConnectionState) {
  let state = initial;
  const listeners = new Set<(s: ConnectionState) => void>();
  const connection: HostConnection = {
    getState: () => state,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    hint: undefined,
  };
  const set = (next: ConnectionState): void => {
    state = next;
    for (const listener of listeners) listener(next);
  };
  return { connection, set };
}

describe('createAppStore', () => {
  it('loads the snapshot once connected, and again after every reconnect', async () => {
    const { host } = fakeHost();
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
    const { host, emit } = fakeHost();
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

  it('adding a server selects it', async () => {
    const { host } = fakeHost();
    const { store } = createAppStore(host, fakeConnection('connected').connection);
    await flush();
    const input = { name: 'new', command: 'node', args: [], env: {} };
    expect((await store.getState().actions.addServer(input)).ok).toBe(true);
    expect(store.getState()).toMatchObject({ selectedServer: 'new', serverNames: ['a', 'b', 'new'] });
  });

  it('catches malformed JSON before calling, and stores host errors and results', async () => {
    const { host } = fakeHost();
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
    });
    expect(toolCallOf(store.getState(), 'a', 'echo')).toMatchObject({
      running: false,
      error: undefined,
      argumentsText: '{"message": "hi"}',
      result: { content: [{ type: 'text', text: 'Echo: hi' }] },
    });
  });
});
