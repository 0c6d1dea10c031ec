import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { requestNames } from '../../../../../shared/ipc/contract.js';
import type { ServerSnapshot } from '../../../../../shared/model/server.js';
import type { ConnectionState } from '../../../../../renderer/src/bridge/connection.js';
import { inboundChecks } from '../../../../../renderer/src/bridge/inbound-checks.js';
import type { InboundChecks } from '../../../../../renderer/src/bridge/inbound-checks.js';
import { createWebSocketBridge } from '../../../../../renderer/src/bridge/ws-bridge.js';
import type { BridgeSocket, HostBridge } from '../../../../../renderer/src/bridge/ws-bridge.js';

/** A socket the test drives by hand: open it, feed it frames, drop it. */
class FakeSocket implements BridgeSocket {
  readyState: BridgeSocket['readyState'] = 0;
  readonly sent: unknown[] = [];
  onopen: BridgeSocket['onopen'] = null;
  onmessage: BridgeSocket['onmessage'] = null;
  onclose: BridgeSocket['onclose'] = null;

  send(data: string | ArrayBufferLike | Blob | ArrayBufferView): void {
    if (typeof data === 'string') this.sent.push(JSON.parse(data));
  }
  close(): void {
    this.drop();
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.call(this.asWebSocket(), new Event('open'));
  }
  receive(frame: unknown): void {
    const data = typeof frame === 'string' ? frame : JSON.stringify(frame);
    this.onmessage?.call(this.asWebSocket(), new MessageEvent('message', { data }));
  }
  drop(): void {
    this.readyState = 3;
    this.onclose?.call(this.asWebSocket(), new Event('close') as CloseEvent);
  }
  private asWebSocket(): WebSocket {
    // The handlers ignore `this`; the type only asks for it.
    return this as unknown as WebSocket;
  }
}

/** The sockets a bridge opened, newest last, and the opener that records them. */
function fakeSockets(): { opened: FakeSocket[]; openSocket: () => FakeSocket; latest: () => FakeSocket } {
  const sockets: FakeSocket[] = [];
  return {
    opened: sockets,
    openSocket: () => {
      const socket = new FakeSocket();
      sockets.push(socket);
      return socket;
    },
    latest: () => {
      const socket = sockets.at(-1);
      if (!socket) throw new Error('no socket opened');
      return socket;
    },
  };
}

const snapshot: ServerSnapshot = {
  name: 'everything',
  transport: 'stdio',
  target: 'node index.js stdio',
  status: 'connected',
  capabilities: { tools: true, resources: true, prompts: true, logging: true },
  tools: [],
  counts: { tools: 0, resources: 0, prompts: 0 },
  stderrTail: [],
};

describe('createWebSocketBridge', () => {
  let sockets: ReturnType<typeof fakeSockets>;
  let bridge: HostBridge;
  const latest = (): FakeSocket => sockets.latest();

  beforeEach(async () => {
    vi.useFakeTimers();
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    sockets = fakeSockets();
    bridge = createWebSocketBridge({
      url: 'ws://127.0.0.1:1/ipc?token=t',
      openSocket: sockets.openSocket,
    });
    // The bridge's own dynamic import of its checks (the tests below assume them loaded).
    await vi.dynamicImportSettled();
  });

  afterEach(() => {
    bridge.dispose();
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('refuses a request too large for one frame with a clear error, without sending it', async () => {
    latest().open();
    // 11 MB of quotes: JSON text of 22 MB that the frame escapes again, past the 32 MB cap.
    const argumentsJson = JSON.stringify({ message: '"'.repeat(11 * 1024 * 1024) });
    const result = await bridge.api.callTool({ server: 's', tool: 't', argumentsJson });
    if (result.ok) throw new Error('expected a refusal');
    expect(result.error.code).toBe('invalid_params');
    expect(result.error.message).toMatch(
      /^This request is too large to send \(4\d\.\d MB; the host accepts at most 32\.0 MB\)$/,
    );
    expect(latest().sent).toEqual([]);
    expect(bridge.connection.getState()).toBe('connected');
  });

  it('refuses a request with more nested values than the host parses, without sending it', async () => {
    latest().open();
    const argumentsJson = '['.repeat(1_000_001);
    const result = await bridge.api.callTool({ server: 's', tool: 't', argumentsJson });
    if (result.ok) throw new Error('expected a refusal');
    expect(result.error.message).toMatch(/^This request holds too many nested values to send/);
    expect(latest().sent).toEqual([]);
  });

  it('has one method per request of the contract', () => {
    for (const name of requestNames) expect(typeof bridge.api[name]).toBe('function');
  });

  it('answers not_connected at once while the socket is not open', async () => {
    const result = await bridge.api.listServers({});
    expect(result).toMatchObject({ ok: false, error: { code: 'not_connected' } });
    expect(latest().sent).toEqual([]);
  });

  it('sends {id, method, params} and resolves with the value parsed by the contract', async () => {
    latest().open();
    const pending = bridge.api.stopServer({ name: 'everything' });
    expect(latest().sent).toEqual([{ id: 1, method: 'stopServer', params: { name: 'everything' } }]);
    latest().receive({ id: 1, result: { ok: true, value: snapshot } });
    expect(await pending).toEqual({ ok: true, value: snapshot });
  });

  it('passes error values through and turns a malformed value into protocol_error', async () => {
    latest().open();
    const refused = bridge.api.removeServer({ name: 'x' });
    latest().receive({ id: 1, result: { ok: false, error: { code: 'not_found', message: 'No server x' } } });
    expect(await refused).toEqual({ ok: false, error: { code: 'not_found', message: 'No server x' } });

    const garbled = bridge.api.getConfigState({});
    latest().receive({ id: 2, result: { ok: true, value: { path: 42 } } });
    expect(await garbled).toMatchObject({ ok: false, error: { code: 'protocol_error' } });
  });

  it('delivers valid events and drops invalid frames and payloads', () => {
    latest().open();
    const removed = vi.fn();
    const unsubscribe = bridge.api.on('serverRemoved', removed);
    latest().receive('not json');
    latest().receive({ event: 'serverRemoved', payload: { name: 7 } });
    latest().receive({ event: 'noSuchEvent', payload: {} });
    latest().receive({ event: 'serverRemoved', payload: { name: 'gone' } });
    expect(removed.mock.calls).toEqual([[{ name: 'gone' }]]);
    unsubscribe();
    latest().receive({ event: 'serverRemoved', payload: { name: 'again' } });
    expect(removed).toHaveBeenCalledTimes(1);
  });

  it('gives up on a socket that never opens and tries again', () => {
    const first = latest();
    vi.advanceTimersByTime(5000);
    expect(first.readyState).toBe(3);
    expect(bridge.connection.getState()).toBe('reconnecting');
    vi.advanceTimersByTime(500);
    expect(sockets.opened).toHaveLength(2);
  });

  it('settles pending calls when the socket drops and reconnects with backoff', async () => {
    const states: ConnectionState[] = [];
    bridge.connection.subscribe((state) => states.push(state));
    latest().open();
    const pending = bridge.api.listServers({});
    latest().drop();
    expect(await pending).toEqual({
      ok: false,
      error: { code: 'not_connected', message: 'Lost connection to the host' },
    });
    expect(bridge.connection.getState()).toBe('reconnecting');

    // Failed attempts wait 0.5 s, 1 s, 2 s, 4 s, then 5 s at most.
    for (const wait of [500, 1000, 2000, 4000, 5000, 5000]) {
      const before = sockets.opened.length;
      vi.advanceTimersByTime(wait - 1);
      expect(sockets.opened.length).toBe(before);
      vi.advanceTimersByTime(1);
      expect(sockets.opened.length).toBe(before + 1);
      latest().drop();
    }
    vi.advanceTimersByTime(5000);
    latest().open();
    expect(states).toEqual(['connected', 'reconnecting', 'connected']);

    // A successful open resets the backoff.
    latest().drop();
    const before = sockets.opened.length;
    vi.advanceTimersByTime(500);
    expect(sockets.opened.length).toBe(before + 1);
  });
});

describe('createWebSocketBridge before its checks have loaded', () => {
  let sockets: ReturnType<typeof fakeSockets>;
  let bridge: HostBridge;
  let loaded: { resolve: (checks: InboundChecks) => void; reject: (error: Error) => void };
  const latest = (): FakeSocket => sockets.latest();
  /** Lets the loader's promise and what it releases (one frame per task) run. */
  const settle = async (): Promise<void> => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
    await vi.advanceTimersByTimeAsync(50);
  };

  beforeEach(() => {
    vi.useFakeTimers();
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    sockets = fakeSockets();
    const checks = new Promise<InboundChecks>((resolve, reject) => {
      loaded = { resolve, reject };
    });
    bridge = createWebSocketBridge({
      url: 'ws://127.0.0.1:1/ipc?token=t',
      openSocket: sockets.openSocket,
      loadChecks: () => checks,
    });
  });

  afterEach(() => {
    bridge.dispose();
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('sends requests at once and handles what arrived meanwhile in order once the checks are there', async () => {
    latest().open();
    expect(bridge.connection.getState()).toBe('connected');
    const removed = vi.fn();
    bridge.api.on('serverRemoved', removed);
    const answered = vi.fn();
    void bridge.api.stopServer({ name: 'everything' }).then(answered);
    expect(latest().sent).toEqual([{ id: 1, method: 'stopServer', params: { name: 'everything' } }]);

    latest().receive({ event: 'serverRemoved', payload: { name: 'first' } });
    latest().receive({ event: 'serverRemoved', payload: { name: 7 } });
    latest().receive('not json');
    latest().receive({ event: 'serverRemoved', payload: { name: 'second' } });
    latest().receive({ id: 1, result: { ok: true, value: snapshot } });
    latest().receive({ event: 'serverRemoved', payload: { name: 'third' } });
    await settle();
    expect(removed).not.toHaveBeenCalled();
    expect(answered).not.toHaveBeenCalled();

    loaded.resolve(inboundChecks);
    await settle();
    // The invalid payload and the frame that is not JSON are still dropped.
    expect(removed.mock.calls).toEqual([[{ name: 'first' }], [{ name: 'second' }], [{ name: 'third' }]]);
    expect(answered).toHaveBeenCalledWith({ ok: true, value: snapshot });

    // Later frames are handled as they come.
    latest().receive({ event: 'serverRemoved', payload: { name: 'fourth' } });
    expect(removed).toHaveBeenLastCalledWith({ name: 'fourth' });
  });

  it('lets a caller act on a held answer before the listeners of an event that came after it', async () => {
    latest().open();
    const seen: string[] = [];
    bridge.api.on('serverRemoved', ({ name }) => seen.push(`event ${name}`));
    // As the app's store does: read the list, then apply it, in an async function.
    const read = (async () => {
      const result = await bridge.api.stopServer({ name: 'everything' });
      seen.push(`answer ${result.ok ? result.value.status : 'failed'}`);
    })();
    latest().receive({ id: 1, result: { ok: true, value: snapshot } });
    latest().receive({ event: 'serverRemoved', payload: { name: 'everything' } });
    loaded.resolve(inboundChecks);
    await settle();
    await read;
    // The event is the newer fact: it must come last, or the stale answer would undo it.
    expect(seen).toEqual(['answer connected', 'event everything']);
  });

  it('still checks a held answer against its request: a malformed one becomes protocol_error', async () => {
    latest().open();
    const garbled = bridge.api.getConfigState({});
    latest().receive({ id: 1, result: { ok: true, value: { path: 42 } } });
    loaded.resolve(inboundChecks);
    expect(await garbled).toMatchObject({ ok: false, error: { code: 'protocol_error' } });
  });

  it('keeps an answer that arrived before the socket dropped, and fails only that socket’s other calls', async () => {
    latest().open();
    const answered = bridge.api.stopServer({ name: 'everything' });
    const unanswered = bridge.api.listServers({});
    latest().receive({ id: 1, result: { ok: true, value: snapshot } });
    latest().drop();
    expect(bridge.connection.getState()).toBe('reconnecting');
    vi.advanceTimersByTime(500);
    latest().open();
    const later = bridge.api.stopServer({ name: 'everything' });

    loaded.resolve(inboundChecks);
    await settle();
    expect(await answered).toEqual({ ok: true, value: snapshot });
    expect(await unanswered).toMatchObject({ ok: false, error: { code: 'not_connected' } });
    latest().receive({ id: 3, result: { ok: true, value: snapshot } });
    expect(await later).toEqual({ ok: true, value: snapshot });
  });

  it('does not come back to "connected" when the checks fail while the socket is opening', async () => {
    const opening = latest();
    loaded.reject(new Error('Failed to fetch dynamically imported module'));
    await settle();
    opening.open();
    expect(bridge.connection.getState()).toBe('failed');
  });

  it('uses nothing that arrived when the checks cannot be loaded, and says so', async () => {
    const states: ConnectionState[] = [];
    bridge.connection.subscribe((state) => states.push(state));
    latest().open();
    const removed = vi.fn();
    bridge.api.on('serverRemoved', removed);
    const pending = bridge.api.listServers({});
    latest().receive({ event: 'serverRemoved', payload: { name: 'unchecked' } });
    latest().receive({ id: 1, result: { ok: true, value: [] } });

    loaded.reject(new Error('Failed to fetch dynamically imported module'));
    const failure = {
      code: 'internal',
      message: 'This page could not load its checks for what the host sends. Reload the page.',
    };
    expect(await pending).toMatchObject({ ok: false, error: failure });
    expect(removed).not.toHaveBeenCalled();
    expect(states).toEqual(['connected', 'failed']);
    expect(latest().readyState).toBe(3);

    // It stays out of service: no reconnecting, and every call answers the same error.
    const opened = sockets.opened.length;
    vi.advanceTimersByTime(60_000);
    expect(sockets.opened).toHaveLength(opened);
    expect(bridge.connection.getState()).toBe('failed');
    expect(await bridge.api.getAppInfo({})).toMatchObject({ ok: false, error: failure });
  });
});
