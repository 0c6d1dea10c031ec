// Only types from the contract and wire.ts: their schemas (and zod) arrive
// with inbound-checks.ts, loaded on demand, so the first screen does not wait for them.
import type { RequestParams, RequestResult } from '../../../shared/ipc/contract.js';
import type { HostApi, HostEventListener, HostRequests } from '../../../shared/ipc/host-api.js';
import { REQUEST_NAMES, isEventName } from '../../../shared/ipc/names.js';
import type { EventName, RequestName } from '../../../shared/ipc/names.js';
import type { HostErrorValue, Result } from '../../../shared/ipc/result.js';
import type { ClientFrame } from '../../../shared/ipc/wire.js';
import { MAX_FRAME_BYTES, MAX_FRAME_NESTINGS } from '../../../shared/ipc/wire-constants.js';
import { nextRetryDelay } from './backoff.js';
import type { ConnectionState, HostConnection } from './connection.js';
import type { InboundChecks } from './inbound-checks.js';

/** A socket that neither opens nor fails by then (e.g. a proxy that swallows the upgrade) is retried. */
const OPEN_TIMEOUT_MS = 5000;

/** WebSocket.OPEN, spelled out so the bridge also runs where `WebSocket` is a test double. */
const OPEN = 1;

const LOST: HostErrorValue = { code: 'not_connected', message: 'Lost connection to the host' };
const NOT_CONNECTED: HostErrorValue = { code: 'not_connected', message: 'Not connected to the host' };
const NO_CHECKS: HostErrorValue = {
  code: 'internal',
  message: 'This page could not load its checks for what the host sends. Reload the page.',
};

/** The checks of what the host sends, loaded apart from the first screen's script. */
const loadInboundChecks = (): Promise<InboundChecks> =>
  import('./inbound-checks.js').then((module) => module.inboundChecks);

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
  /** Loads the checks of inbound frames; defaults to a dynamic import of inbound-checks.ts. */
  loadChecks?: () => Promise<InboundChecks>;
}

/** A HostApi over some pipe, plus that pipe's connection state. */
export interface HostBridge {
  readonly api: HostApi;
  readonly connection: HostConnection;
  /** Closes the socket and stops reconnecting. */
  dispose(): void;
}

type AnyListener = (payload: unknown) => void;

/** A call waiting for its answer, and the socket it was sent on (whose loss settles it). */
interface PendingCall {
  readonly socket: BridgeSocket;
  /** A value the host answered with, still to be checked against the request's result schema. */
  readonly answer: (checks: InboundChecks, value: unknown) => void;
  readonly fail: (error: HostErrorValue) => void;
}

/**
 * The headless shell's pipe: the HostApi over one WebSocket (frames from
 * shared/ipc/wire.ts). Every inbound frame, result value and event payload is
 * parsed with the contract's schemas; anything else is dropped with a warning.
 * A lost socket settles every pending call with `not_connected` and is
 * reopened with backoff (0.5 s doubling to 5 s).
 *
 * The schemas (inbound-checks.ts, with zod) load on demand, starting as the
 * bridge is made, while its socket opens. What arrives before they are there
 * waits, in order, with the socket's loss behind it; requests go out at once.
 * If they cannot be loaded, nothing that arrived is used: the bridge closes,
 * settles every call with an error and reports the "failed" state.
 */
export function createWebSocketBridge(options: WebSocketBridgeOptions): HostBridge {
  const openSocket = options.openSocket ?? ((url: string): BridgeSocket => new WebSocket(url));
  const pending = new Map<number, PendingCall>();
  const listeners = new Map<EventName, Set<AnyListener>>();
  const stateListeners = new Set<(state: ConnectionState) => void>();
  let state: ConnectionState = 'connecting';
  let socket: BridgeSocket | undefined;
  let nextId = 1;
  let retryDelay: number | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let disposed = false;
  /** Set once the checks have loaded; until then inbound work waits in `inbox`. */
  let checks: InboundChecks | undefined;
  const inbox: ((loaded: InboundChecks) => void)[] = [];
  /** Set when the checks could not be loaded: the bridge is out of service. */
  let failure: HostErrorValue | undefined;

  function loadChecks(): void {
    (options.loadChecks ?? loadInboundChecks)().then(
      (loaded) => {
        drain(loaded);
      },
      (error: unknown) => {
        outOfService(error);
      },
    );
  }

  /**
   * Handles what waited for the checks, in arrival order, one frame per task
   * as if each had just arrived: a caller awaiting an answer goes on before
   * the listeners of a later event run (else a stale answer could undo that
   * event). Frames arriving meanwhile queue behind; `checks` is set only
   * once the queue is empty.
   */
  function drain(loaded: InboundChecks): void {
    if (disposed || failure) return;
    const work = inbox.shift();
    if (work === undefined) {
      checks = loaded;
      return;
    }
    work(loaded);
    setTimeout(() => {
      drain(loaded);
    }, 0);
  }

  /** Runs inbound work now if the checks are loaded, else after them, in arrival order. */
  function whenChecked(work: (loaded: InboundChecks) => void): void {
    if (disposed || failure) return;
    if (checks) work(checks);
    else inbox.push(work);
  }

  function outOfService(error: unknown): void {
    if (disposed || failure) return;
    console.error('[bridge] cannot load the checks for what the host sends', error);
    failure = NO_CHECKS;
    // What arrived cannot be checked, so none of it is used.
    inbox.length = 0;
    if (retryTimer !== undefined) clearTimeout(retryTimer);
    const ws = socket;
    socket = undefined;
    ws?.close();
    failPending(failure);
    setState('failed');
  }

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
      // A socket given up meanwhile (the checks failed to load) stays closed.
      if (socket !== ws) return;
      retryDelay = undefined;
      setState('connected');
    };
    ws.onmessage = (event: MessageEvent<unknown>) => {
      const data = event.data;
      if (typeof data === 'string') {
        whenChecked((loaded) => {
          receive(loaded, data);
        });
      } else console.warn('[bridge] ignoring a binary frame');
    };
    ws.onclose = () => {
      clearTimeout(openTimer);
      if (socket !== ws) return;
      socket = undefined;
      // After the answers that arrived before the loss, which may still wait for the checks.
      whenChecked(() => {
        failPending(LOST, ws);
      });
      retryLater();
    };
  }

  function retryLater(): void {
    if (disposed || failure) return;
    setState('reconnecting');
    retryDelay = nextRetryDelay(retryDelay);
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      connect();
    }, retryDelay);
  }

  /** Settles the calls sent on `only` (default: every call) with `error`. */
  function failPending(error: HostErrorValue, only?: BridgeSocket): void {
    const failing = [...pending].filter(([, call]) => only === undefined || call.socket === only);
    for (const [id] of failing) pending.delete(id);
    for (const [, call] of failing) call.fail(error);
  }

  function receive(loaded: InboundChecks, text: string): void {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      console.warn('[bridge] ignoring a frame that is not JSON');
      return;
    }
    const frame = loaded.frame(json);
    if (!frame.ok) {
      console.warn('[bridge] ignoring a malformed frame', frame.issues);
      return;
    }
    if ('id' in frame.value) {
      const call = pending.get(frame.value.id);
      if (!call) {
        console.warn(`[bridge] ignoring an answer to unknown request ${frame.value.id}`);
        return;
      }
      pending.delete(frame.value.id);
      const result = frame.value.result;
      if (result.ok) call.answer(loaded, result.value);
      else call.fail(result.error);
    } else {
      deliver(loaded, frame.value.event, frame.value.payload);
    }
  }

  function deliver(loaded: InboundChecks, name: string, payload: unknown): void {
    if (!isEventName(name)) {
      console.warn(`[bridge] ignoring unknown event ${name.slice(0, 64)}`);
      return;
    }
    const parsed = loaded.event(name, payload);
    if (!parsed.ok) {
      console.warn(`[bridge] ignoring invalid ${name} event`, parsed.issues);
      return;
    }
    for (const listener of [...(listeners.get(name) ?? [])]) {
      try {
        listener(parsed.value);
      } catch (error) {
        // One broken listener must not starve the others of the event.
        console.error(`[bridge] ${name} listener failed`, error);
      }
    }
  }

  function call<K extends RequestName>(name: K, params: RequestParams<K>): Promise<Result<RequestResult<K>>> {
    if (failure) return Promise.resolve({ ok: false, error: failure });
    const ws = socket;
    if (ws?.readyState !== OPEN) return Promise.resolve({ ok: false, error: NOT_CONNECTED });
    const id = nextId++;
    return new Promise((resolve) => {
      pending.set(id, {
        socket: ws,
        answer: (loaded, value) => {
          resolve(checkResult(loaded, name, value));
        },
        fail: (error) => {
          resolve({ ok: false, error });
        },
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
    REQUEST_NAMES.map((name) => [name, (params: RequestParams<typeof name>) => call(name, params)]),
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

  loadChecks();
  connect();

  return {
    api: { ...methods, on },
    connection,
    dispose() {
      disposed = true;
      inbox.length = 0;
      if (retryTimer !== undefined) clearTimeout(retryTimer);
      socket?.close();
      failPending(LOST);
    },
  };
}

/** Parses a result value with the contract's schema for `name`. */
function checkResult<K extends RequestName>(
  checks: InboundChecks,
  name: K,
  value: unknown,
): Result<RequestResult<K>> {
  const parsed = checks.result(name, value);
  if (!parsed.ok) {
    console.warn(`[bridge] invalid answer to ${name}`, parsed.issues);
    return {
      ok: false,
      error: { code: 'protocol_error', message: `The host sent an unexpected answer to ${name}` },
    };
  }
  return { ok: true, value: parsed.value };
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
