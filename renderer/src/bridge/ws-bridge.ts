import { events, isEventName, requestNames, requests } from '../../../shared/ipc/contract.js';
import type { EventName, RequestName, RequestParams, RequestResult } from '../../../shared/ipc/contract.js';
import type { HostApi, HostEventListener, HostRequests } from '../../../shared/ipc/host-api.js';
import type { HostErrorValue, Result } from '../../../shared/ipc/result.js';
import { MAX_FRAME_BYTES, MAX_FRAME_NESTINGS, ServerFrameSchema } from '../../../shared/ipc/wire.js';
import type { ClientFrame } from '../../../shared/ipc/wire.js';
import { nextRetryDelay } from './backoff.js';
import type { ConnectionState, HostConnection } from './connection.js';

/** A socket that neither opens nor fails by then (e.g. a proxy that swallows the upgrade) is retried. */
const OPEN_TIMEOUT_MS = 5000;

/** WebSocket.OPEN, spelled out so the bridge also runs where `WebSocket` is a test double. */
const OPEN = 1;

const LOST: HostErrorValue = { code: 'not_connected', message: 'Lost connection to the host' };
const NOT_CONNECTED: HostErrorValue = { code: 'not_connected', message: 'Not connected to the host' };

/** The part of a WebSocket the bridge uses; tests pass a fake. */
export type BridgeSocket = Pick<
  WebSocket,
  'readyState' | 'send' | 'close' | 'onopen' | 'onmessage' | 'onclose'
>;

export interface WebSocketBridgeOptions {
  /** Full ws:// or wss:// URL of the host's IPC endpoint, token included. */
  url: string;
  /** Shown with the "Reconnecting" banner when we know why connecting may fail. */
  hint?: string | undefined;
  /** Opens a socket; defaults to the browser's WebSocket. */
  openSocket?: (url: string) => BridgeSocket;
}

/** A HostApi over some pipe, plus that pipe's connection state. */
export interface HostBridge {
  readonly api: HostApi;
  readonly connection: HostConnection;
  /** Closes the socket and stops reconnecting. */
  dispose(): void;
}

type AnyListener = (payload: unknown) => void;

/**
 * The headless shell's pipe: the HostApi over one WebSocket (frames from
 * shared/ipc/wire.ts). Every inbound frame, result value and event payload is
 * parsed with the contract's schemas; anything else is dropped with a warning.
 * A lost socket settles every pending call with `not_connected` and is
 * reopened with backoff (0.5 s doubling to 5 s).
 */
export function createWebSocketBridge(options: WebSocketBridgeOptions): HostBridge {
  const openSocket = options.openSocket ?? ((url: string): BridgeSocket => new WebSocket(url));
  const pending = new Map<number, (result: Result<unknown>) => void>();
  const listeners = new Map<EventName, Set<AnyListener>>();
  const stateListeners = new Set<(state: ConnectionState) => void>();
  let state: ConnectionState = 'connecting';
  let socket: BridgeSocket | undefined;
  let nextId = 1;
  let retryDelay: number | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let disposed = false;

  function setState(next: ConnectionState): void {
    if (next === state) return;
    state = next;
    for (const listener of [...stateListeners]) listener(next);
  }

  function connect(): void {
    let ws: BridgeSocket;
    try {
      ws = openSocket(options.url);
    } catch (error) {
      console.error('[bridge] cannot open the host socket', error);
      retryLater();
      return;
    }
    socket = ws;
    const openTimer = setTimeout(() => {
      ws.close();
    }, OPEN_TIMEOUT_MS);
    ws.onopen = () => {
      clearTimeout(openTimer);
      retryDelay = undefined;
      setState('connected');
    };
    ws.onmessage = (event: MessageEvent<unknown>) => {
      if (typeof event.data === 'string') receive(event.data);
      else console.warn('[bridge] ignoring a binary frame');
    };
    ws.onclose = () => {
      clearTimeout(openTimer);
      if (socket !== ws) return;
      socket = undefined;
      failPending(LOST);
      retryLater();
    };
  }

  function retryLater(): void {
    if (disposed) return;
    setState('reconnecting');
    retryDelay = nextRetryDelay(retryDelay);
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      connect();
    }, retryDelay);
  }

  function failPending(error: HostErrorValue): void {
    const settles = [...pending.values()];
    pending.clear();
    for (const settle of settles) settle({ ok: false, error });
  }

  function receive(text: string): void {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      console.warn('[bridge] ignoring a frame that is not JSON');
      return;
    }
    const frame = ServerFrameSchema.safeParse(json);
    if (!frame.success) {
      console.warn('[bridge] ignoring a malformed frame', frame.error.issues);
      return;
    }
    if ('id' in frame.data) {
      const settle = pending.get(frame.data.id);
      if (!settle) {
        console.warn(`[bridge] ignoring an answer to unknown request ${frame.data.id}`);
        return;
      }
      pending.delete(frame.data.id);
      settle(frame.data.result);
    } else {
      deliver(frame.data.event, frame.data.payload);
    }
  }

  function deliver(name: string, payload: unknown): void {
    if (!isEventName(name)) {
      console.warn(`[bridge] ignoring unknown event ${name.slice(0, 64)}`);
      return;
    }
    const parsed = events[name].safeParse(payload);
    if (!parsed.success) {
      console.warn(`[bridge] ignoring invalid ${name} event`, parsed.error.issues);
      return;
    }
    for (const listener of [...(listeners.get(name) ?? [])]) {
      try {
        listener(parsed.data);
      } catch (error) {
        // One broken listener must not starve the others of the event.
        console.error(`[bridge] ${name} listener failed`, error);
      }
    }
  }

  function call<K extends RequestName>(name: K, params: RequestParams<K>): Promise<Result<RequestResult<K>>> {
    const ws = socket;
    if (ws?.readyState !== OPEN) return Promise.resolve({ ok: false, error: NOT_CONNECTED });
    const id = nextId++;
    return new Promise((resolve) => {
      pending.set(id, (result) => {
        resolve(result.ok ? checkResult(name, result.value) : result);
      });
      const frame: ClientFrame = { id, method: name, params };
      const text = JSON.stringify(frame);
      const refusal = unsendable(text);
      if (refusal) {
        // The host would close the socket on such a frame; say why here instead.
        pending.delete(id);
        resolve({ ok: false, error: refusal });
        return;
      }
      try {
        ws.send(text);
      } catch {
        pending.delete(id);
        resolve({ ok: false, error: LOST });
      }
    });
  }

  function on<E extends EventName>(event: E, listener: HostEventListener<E>): () => void {
    const set = listeners.get(event) ?? new Set<AnyListener>();
    listeners.set(event, set);
    // Safe widening: deliver() only calls it with a payload parsed by events[event].
    const wrapped = listener as AnyListener;
    set.add(wrapped);
    return () => {
      set.delete(wrapped);
    };
  }

  // One method per row of the contract; a mapped type cannot be built by a
  // loop without this assertion, and each entry forwards its own name.
  const methods = Object.fromEntries(
    requestNames.map((name) => [name, (params: RequestParams<typeof name>) => call(name, params)]),
  ) as unknown as HostRequests;

  const connection: HostConnection = {
    getState: () => state,
    subscribe(listener) {
      stateListeners.add(listener);
      return () => {
        stateListeners.delete(listener);
      };
    },
    hint: options.hint,
  };

  connect();

  return {
    api: { ...methods, on },
    connection,
    dispose() {
      disposed = true;
      if (retryTimer !== undefined) clearTimeout(retryTimer);
      socket?.close();
      failPending(LOST);
    },
  };
}

/** Parses a result value with the contract's schema for `name`. */
function checkResult<K extends RequestName>(name: K, value: unknown): Result<RequestResult<K>> {
  const parsed = requests[name].result.safeParse(value);
  if (!parsed.success) {
    console.warn(`[bridge] invalid answer to ${name}`, parsed.error.issues);
    return {
      ok: false,
      error: { code: 'protocol_error', message: `The host sent an unexpected answer to ${name}` },
    };
  }
  // requests[name] is the schema of K, but TypeScript widens it to the union of all rows.
  return { ok: true, value: parsed.data as RequestResult<K> };
}

/**
 * The UTF-8 size of a frame's text when it is over the host's frame cap, else
 * undefined. A UTF-16 unit takes 1 to 3 bytes, so the length alone decides
 * most cases without encoding a large string.
 */
export function oversizeBytes(text: string): number | undefined {
  if (text.length * 3 <= MAX_FRAME_BYTES) return undefined;
  const bytes = text.length > MAX_FRAME_BYTES ? text.length : new TextEncoder().encode(text).length;
  return bytes > MAX_FRAME_BYTES ? bytes : undefined;
}

/** Why the host would refuse this frame, if it would: too large, or too many nested values. */
function unsendable(text: string): HostErrorValue | undefined {
  const bytes = oversizeBytes(text);
  if (bytes !== undefined) return tooLarge(bytes);
  if (text.length > MAX_FRAME_NESTINGS && nestings(text) > MAX_FRAME_NESTINGS) {
    return {
      code: 'invalid_params',
      message: `This request holds too many nested values to send (more than ${MAX_FRAME_NESTINGS.toLocaleString('en')} "{" or "[")`,
    };
  }
  return undefined;
}

function nestings(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) count++;
  }
  return count;
}

function tooLarge(bytes: number): HostErrorValue {
  const mb = (n: number) => (n / (1024 * 1024)).toFixed(1);
  return {
    code: 'invalid_params',
    message: `This request is too large to send (${mb(bytes)} MB; the host accepts at most ${mb(MAX_FRAME_BYTES)} MB)`,
  };
}
