import { CLIENT_CAPABILITIES_META_KEY, Client, LOG_LEVEL_META_KEY } from '@modelcontextprotocol/client';
import type {
  ClientOptions,
  ConnectOptions,
  JSONRPCResponse,
  Implementation,
  ListChangedHandlers,
  PriorDiscovery,
  ResponseCacheStore,
  Tool,
  Transport,
} from '@modelcontextprotocol/client';
import type { ServerConfig } from '../../../shared/model/config.js';
import { installClientFeatures } from '../client-features/client-feature.js';
import type {
  ClientFeature,
  InterceptingClient,
  NotificationFastPath,
  RequestHandler,
  RequestInterceptor,
} from '../client-features/client-feature.js';
import { hostClientFeatures } from '../client-features/feature-list.js';
import type { LogLevel } from '../../../shared/model/logs.js';
import type { NewLogEntry } from './lifecycle/server-log.js';
import { InboundFastLane } from './inbound-fast-lane.js';
import { ExtensionWire, answerInputRequest, taskHandleAsResult } from './tasks/extension-wire.js';
import { speaksTaskExtension } from './tasks/task-extension.js';
import type { TaskExtensionClient } from './tasks/task-extension.js';
import { headerDeclarationProblem } from './tool-header-declarations.js';

export interface ServerClientOptions {
  /** The server this client talks to (its handlers name it). */
  server: string;
  appVersion: string;
  /** 'legacy-only' for HTTP+SSE, which has no 2026-07-28 era; otherwise the SDK probes (a prior verdict goes to connect()). */
  negotiation: PriorDiscovery | 'legacy-only' | undefined;
  /** How long the version probe may go unanswered before the legacy handshake. */
  probeTimeoutMs: number;
  /** The server's entry as it is now (client features read it, e.g. its roots). */
  config: () => ServerConfig;
  listChanged: ListChangedHandlers;
  /**
   * What this client offers the server (client-features/feature-list.ts);
   * absent: the features every client has, with no person to ask.
   */
  features?: readonly ClientFeature[] | undefined;
  onResourceUpdated: (uri: string) => void;
  /** The server's `notifications/message`, as log entries; also the host's own lines about this server. */
  onLog: (entry: NewLogEntry) => void;
  /**
   * Where cacheable results (lists, with the server's `ttlMs`) are kept. One
   * store per server that outlives a connection, so a reconnect within a
   * list's ttl does not fetch it again; the SDK partitions it by server identity.
   */
  responseCache?: ResponseCacheStore | undefined;
  /** The log level for a 2026-07-28 server, read at each request (the person may change it). */
  requestLogLevel?: (() => LogLevel | undefined) | undefined;
}

/**
 * The SDK client with the per-request log level of the 2026-07-28 revision:
 * that wire has no logging/setLevel, a request asks for the level it wants
 * in `_meta` ("io.modelcontextprotocol/logLevel"; deprecated with all of
 * server logging by SEP-2577, and kept for the servers that still log). The SDK builds the
 * envelope of every request on a modern connection here (a protected hook);
 * on a 2025-era connection there is no envelope and nothing changes.
 */
class HostClient extends Client implements InterceptingClient, TaskExtensionClient {
  private readonly interceptors = new Map<string, RequestInterceptor>();
  private readonly closeListeners: (() => void)[] = [];
  private readonly wire = new ExtensionWire();
  private readonly fastLane = new InboundFastLane();

  constructor(
    info: Implementation,
    options: ClientOptions,
    private readonly logLevel: () => LogLevel | undefined,
    /** Extensions declared only in a 2026-07-28 request's capabilities (ClientFeature.modernExtensions). */
    private readonly modernExtensions: Readonly<Record<string, object>> = {},
  ) {
    super(info, options);
  }

  extensionRequest(
    method: 'tasks/get' | 'tasks/update' | 'tasks/cancel',
    params: Record<string, unknown>,
    timeoutMs: number,
  ): Promise<Record<string, unknown>> {
    return this.wire.send(this.transport, this._outboundMetaEnvelope(), method, params, timeoutMs);
  }

  answerInputRequest(key: string, entry: unknown, signal: AbortSignal): Promise<Record<string, unknown>> {
    const getHandler = (method: string): RequestHandler | undefined => this._getRequestHandler(method);
    return answerInputRequest(getHandler, this.transport?.sessionId, key, entry, signal);
  }

  /** The extension's own answers are taken out first; a task handle is made something the SDK accepts. */
  protected override _onresponse(response: JSONRPCResponse): void {
    if (this.wire.take(response)) return;
    super._onresponse(speaksTaskExtension(this) ? taskHandleAsResult(response) : response);
  }

  /** Once connected, frequent notifications (task status) are read without the SDK's per-message schema checks. */
  override async connect(transport: Transport, options?: ConnectOptions): Promise<void> {
    await super.connect(transport, options);
    this.fastLane.attach(transport);
  }

  readNotificationFirst(method: string, fastPath: NotificationFastPath): void {
    this.fastLane.add(method, fastPath);
  }

  interceptRequests(methods: readonly string[], interceptor: RequestInterceptor): void {
    for (const method of methods) this.interceptors.set(method, interceptor);
  }

  whenClosed(listener: () => void): void {
    this.closeListeners.push(listener);
  }

  protected override _onclose(): void {
    for (const listener of this.closeListeners.splice(0)) listener();
    this.wire.close();
    super._onclose();
  }

  /** The SDK's wrapped handler, behind the interceptor of its method (looked up at each request). */
  protected override _wrapHandler(method: string, handler: RequestHandler): RequestHandler {
    const wrapped = super._wrapHandler(method, handler);
    return (request, ctx) => {
      const interceptor = this.interceptors.get(method);
      return interceptor ? interceptor(request, ctx, wrapped) : wrapped(request, ctx);
    };
  }

  protected override _outboundMetaEnvelope(): Readonly<Record<string, unknown>> | undefined {
    const envelope = withExtensions(super._outboundMetaEnvelope(), this.modernExtensions);
    const level = this.logLevel();
    return envelope && level !== undefined ? { ...envelope, [LOG_LEVEL_META_KEY]: level } : envelope;
  }
}

/** A request envelope whose capabilities also name the modern-only extensions. */
function withExtensions(
  envelope: Readonly<Record<string, unknown>> | undefined,
  extensions: Readonly<Record<string, object>>,
): Readonly<Record<string, unknown>> | undefined {
  if (!envelope || Object.keys(extensions).length === 0) return envelope;
  const raw: unknown = envelope[CLIENT_CAPABILITIES_META_KEY];
  const capabilities: Record<string, unknown> = typeof raw === 'object' && raw !== null ? { ...raw } : {};
  const declared: unknown = capabilities.extensions;
  const merged = { ...(typeof declared === 'object' && declared !== null ? declared : {}), ...extensions };
  return { ...envelope, [CLIENT_CAPABILITIES_META_KEY]: { ...capabilities, extensions: merged } };
}

/** The SDK's filter of tools with invalid `x-mcp-header` declarations (2.4.0, internal; see watchDroppedTools). */
type ToolExclusion = (result: { tools: Tool[] }) => void;

/**
 * On a 2026-07-28 HTTP connection the SDK drops tools whose `x-mcp-header`
 * declarations are invalid (SEP-2243: MUST) but only tells the console; the
 * spec's SHOULD (say which tool and why) belongs in the server's log, where
 * the person looks. The SDK keeps the decision; this wraps its internal
 * filter on this one client to see which tools it dropped, once per tool per
 * connection. test/integration/modern-revision.test.ts proves it still fires,
 * so an SDK update that moves the filter fails a test, never a connection.
 */
function watchDroppedTools(client: Client, onDropped: (tool: string, reason: string) => void): void {
  const target = client as unknown as { _excludeInvalidXMcpHeaderTools?: ToolExclusion };
  const sdkFilter = target._excludeInvalidXMcpHeaderTools;
  if (typeof sdkFilter !== 'function') return;
  const reported = new Set<string>();
  target._excludeInvalidXMcpHeaderTools = (result) => {
    const before = result.tools;
    sdkFilter.call(client, result);
    if (result.tools.length === before.length) return;
    const kept = new Set(result.tools);
    for (const tool of before) {
      if (kept.has(tool) || reported.has(tool.name)) continue;
      reported.add(tool.name);
      onDropped(tool.name, headerDeclarationProblem(tool.inputSchema) ?? 'invalid x-mcp-header declaration');
    }
  };
}

/**
 * The SDK client for one connection attempt to one server: what the host
 * declares and answers (its client features), how it negotiates the era,
 * the server's log and resource updates. Strict capabilities: besides the catalog's own
 * `requireCapability` checks, the SDK refuses any request whose capability
 * the server did not declare.
 */
export function createServerClient(options: ServerClientOptions): Client {
  const features = options.features ?? hostClientFeatures();
  const modernExtensions: Record<string, object> = {};
  for (const feature of features) Object.assign(modernExtensions, feature.modernExtensions);
  const client = new HostClient(
    { name: 'mcp-host', title: 'MCP Host', version: options.appVersion },
    {
      // Declared by the features below (installClientFeatures).
      capabilities: {},
      versionNegotiation:
        options.negotiation === 'legacy-only'
          ? { mode: 'legacy' }
          : { mode: 'auto', probe: { timeoutMs: options.probeTimeoutMs } },
      enforceStrictCapabilities: true,
      // Every page of every list; the cap only stops a cursor that never ends.
      listMaxPages: 1000,
      listChanged: options.listChanged,
      ...(options.responseCache ? { responseCacheStore: options.responseCache } : {}),
    },
    options.requestLogLevel ?? (() => undefined),
    modernExtensions,
  );
  watchDroppedTools(client, (tool, reason) => {
    options.onLog({
      source: 'host',
      level: 'warning',
      text: `Tool "${tool}" was dropped: its x-mcp-header declaration is invalid (${reason})`,
    });
  });
  installClientFeatures(client, features, {
    server: options.server,
    config: options.config,
    instructions: () => client.getInstructions(),
  });
  client.setNotificationHandler('notifications/resources/updated', (notification) => {
    options.onResourceUpdated(notification.params.uri);
  });
  client.setNotificationHandler('notifications/message', (notification) => {
    const { level, logger, data } = notification.params;
    const text = typeof data === 'string' ? data : JSON.stringify(data);
    options.onLog({ source: 'server', level, ...(logger !== undefined ? { logger } : {}), text });
  });
  return client;
}
