import type {
  Client,
  ClientCapabilities,
  ClientContext,
  JSONRPCRequest,
  Result,
} from '@modelcontextprotocol/client';
import type { ServerConfig } from '../../../shared/model/config.js';

/**
 * What one connection tells a client feature about its own server. Read the
 * getters at each use: the entry may be edited while connected, and the
 * instructions exist only after the handshake.
 */
export interface ClientFeatureContext {
  /** The server's name in the configuration (dialogs show it; rate limits are keyed by it). */
  readonly server: string;
  /** The server's entry as it is now. */
  readonly config: () => ServerConfig;
  /** The server's own `instructions` from the handshake. */
  readonly instructions: () => string | undefined;
}

/**
 * Something the host's per-server client offers a server: roots, sampling,
 * elicitation, an extension such as MCP Apps. A feature says what the client
 * declares for it and installs the handlers of what the server may then send;
 * differences between the 2025 and 2026-07-28 wire stay inside the feature.
 * The list the host runs is built once, in feature-list.ts.
 */
export interface ClientFeature {
  /** A short name (logs, tests). */
  readonly name: string;
  /**
   * What the client declares: a top-level capability, or an entry under
   * `extensions` keyed by the extension's id. Registered with the SDK's
   * `Client.registerCapabilities`, which merges `extensions` across features.
   */
  readonly capabilities: ClientCapabilities;
  /**
   * Extensions declared only on a 2026-07-28 connection, in the capabilities
   * every request carries (the 2025 handshake does not name them).
   */
  readonly modernExtensions?: Readonly<Record<string, object>> | undefined;
  /** Installs its request and notification handlers on a new client for one server (before connect). */
  readonly install?: (client: Client, context: ClientFeatureContext) => void;
}

/**
 * Declares every feature on a client that has not connected yet, then
 * installs their handlers (the SDK refuses a handler whose capability is not
 * declared, so all declarations come first).
 */
export function installClientFeatures(
  client: Client,
  features: readonly ClientFeature[],
  context: ClientFeatureContext,
): void {
  for (const feature of features) client.registerCapabilities(feature.capabilities);
  for (const feature of features) feature.install?.(client, context);
}

/** The handler the SDK installed for a request (its own checks of the request and the result included). */
export type RequestHandler = (request: JSONRPCRequest, ctx: ClientContext) => Promise<Result>;

/**
 * Runs in front of the handler of some requests: may answer itself (a task
 * handle), or call `next` (now, or later with another signal).
 */
export type RequestInterceptor = (
  request: JSONRPCRequest,
  ctx: ClientContext,
  next: RequestHandler,
) => Promise<Result>;

/**
 * Reads a frequent notification's params before the SDK sees the message:
 * true when it took them, false to leave the message to the SDK's own
 * handler of the method (which validates it and reports what is wrong).
 */
export type NotificationFastPath = (params: Readonly<Record<string, unknown>>) => boolean;

/**
 * A client that lets a feature stand in front of another feature's handler
 * (the host's client, servers/server-client.ts). The SDK validates a
 * sampling or elicitation handler's result as the plain result, so a
 * feature that answers such a request with a task handle must sit outside
 * that check, with the check still applied to the work the task runs.
 */
export interface InterceptingClient {
  interceptRequests(methods: readonly string[], interceptor: RequestInterceptor): void;
  /**
   * A notification that arrives hundreds of times a second (task status) is
   * read by `fastPath` once connected, without the SDK's per-message schema
   * checks (servers/inbound-fast-lane.ts); keep the SDK handler of the
   * method registered too, for what the fast path leaves.
   */
  readNotificationFirst(method: string, fastPath: NotificationFastPath): void;
  /** Called once the connection is closed (work still running for the server is stopped). */
  whenClosed(listener: () => void): void;
}

export function isInterceptingClient(client: Client): client is Client & InterceptingClient {
  return typeof (client as Partial<InterceptingClient>).interceptRequests === 'function';
}

/** Whether the client's connection speaks the 2026-07-28 revision (no handshake, per-request capabilities). */
export function isModernConnection(client: Client): boolean {
  const version = client.getNegotiatedProtocolVersion();
  return version !== undefined && version >= '2026-07-28';
}
