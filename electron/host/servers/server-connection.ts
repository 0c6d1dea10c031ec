import { stat } from 'node:fs/promises';
import { Client, ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { StreamableHTTPReconnectionOptions } from '@modelcontextprotocol/client';
import { isStdioConfig } from '../../../shared/model/config.js';
import type { HttpServerConfig, ServerConfig, StdioServerConfig } from '../../../shared/model/config.js';
import type { ServerSnapshot, ServerStatus, ToolCallResult } from '../../../shared/model/server.js';
import { installRootsHandler } from '../client-features/roots.js';
import { installElicitation } from '../client-features/elicitation-handler.js';
import type { ElicitationServices } from '../client-features/elicitation-handler.js';
import { installSampling } from '../client-features/sampling-handler.js';
import type { SamplingServices } from '../client-features/sampling-handler.js';
import { HostError, describeError, oneLine } from '../errors.js';
import { connectHttp } from './http-transport.js';
import type { HttpSession } from './http-transport.js';
import { ServerCatalog, requireCapability } from './server-catalog.js';
import { StdioProcessTransport } from './stdio-transport.js';
import type { ProcessExit } from './stdio-transport.js';
import { parseToolArguments } from './tool-arguments.js';
import { toToolCallResult } from './tool-result.js';

export interface ConnectionOptions {
  appVersion: string;
  /** Environment every stdio server starts from (the per-server env is laid over it). */
  baseEnv: Record<string, string>;
  /** Handshake time limit. Default 30 s. */
  connectTimeoutMs?: number;
  /** Per-request time limit. Default 60 s. */
  requestTimeoutMs?: number;
  /** Grace period of each stop step. Default 2 s. */
  stopGraceMs?: number;
  /** Reconnection of broken SSE streams of remote servers. Default DEFAULT_HTTP_RECONNECTION. */
  httpReconnection?: StreamableHTTPReconnectionOptions;
  onChange: (snapshot: ServerSnapshot) => void;
  /** A resource this server's client subscribed to changed (`notifications/resources/updated`). */
  onResourceUpdated?: (server: string, uri: string) => void;
  /** When set, the client declares sampling (with tools) and answers it through consent and Claude. */
  sampling?: SamplingServices;
  /** When set, the client declares elicitation (form and URL mode) and answers it through consent. */
  elicitation?: ElicitationServices;
}

const STDERR_TAIL_LINES = 50;

/**
 * One MCP client for one server: the SDK `Client` over our stdio transport.
 * It owns the server's lifecycle (connecting → connected | failed; stopped)
 * and is the only object that talks to that server, so servers never see
 * each other.
 */
export class ServerConnection {
  private status: ServerStatus = 'stopped';
  private error: string | undefined;
  private client: Client | undefined;
  private transport: StdioProcessTransport | undefined;
  /** The remote session, for an http server. */
  private http: HttpSession | undefined;
  private serverCatalog: ServerCatalog | undefined;
  private stderrTail: string[] = [];
  private connectedAt: number | undefined;
  /** Bumped on every start/stop so that late events of an old process are ignored. */
  private generation = 0;

  constructor(
    readonly name: string,
    private config: ServerConfig,
    private readonly options: ConnectionOptions,
  ) {
    if (config.disabled === true) this.status = 'disabled';
  }

  snapshot(): ServerSnapshot {
    const client = this.status === 'connected' ? this.client : undefined;
    const caps = client?.getServerCapabilities();
    const info = client?.getServerVersion();
    const era = client?.getProtocolEra();
    const version = client?.getNegotiatedProtocolVersion();
    const instructions = client?.getInstructions();
    return {
      name: this.name,
      transport: isStdioConfig(this.config) ? 'stdio' : 'http',
      target: describeTarget(this.config),
      ...(client && this.http ? { httpTransport: this.http.kind } : {}),
      status: this.status,
      ...(this.error !== undefined ? { error: this.error } : {}),
      ...(version !== undefined ? { protocolVersion: version } : {}),
      ...(era !== undefined ? { era } : {}),
      ...(info
        ? {
            serverInfo: {
              name: info.name,
              version: info.version,
              ...(typeof info.title === 'string' ? { title: info.title } : {}),
            },
          }
        : {}),
      ...(instructions !== undefined ? { instructions } : {}),
      capabilities: {
        tools: caps?.tools !== undefined,
        resources: caps?.resources !== undefined,
        prompts: caps?.prompts !== undefined,
        logging: caps?.logging !== undefined,
      },
      tools: client && this.serverCatalog ? [...this.serverCatalog.tools] : [],
      counts: this.countsForSnapshot(),
      ...(this.transport?.pid !== undefined && this.status !== 'stopped' ? { pid: this.transport.pid } : {}),
      stderrTail: [...this.stderrTail],
      ...(this.connectedAt !== undefined ? { connectedAt: this.connectedAt } : {}),
    };
  }

  get currentStatus(): ServerStatus {
    return this.status;
  }

  /** What the connected server offers (tools, resources, templates, prompts); undefined unless connected. */
  get catalog(): ServerCatalog | undefined {
    return this.status === 'connected' ? this.serverCatalog : undefined;
  }

  /** The connected server's SDK client, for requests beyond the catalog (read, get, subscribe). */
  get connectedClient(): Client | undefined {
    return this.status === 'connected' ? this.client : undefined;
  }

  /** Throws a clear HostError unless connected and the server declared `feature`. */
  requireCapability(feature: Parameters<typeof requireCapability>[2]): Client {
    const client = this.connectedClient;
    if (!client) throw new HostError('not_connected', `Server "${this.name}" is not connected`);
    requireCapability(this.name, client.getServerCapabilities(), feature);
    return client;
  }

  /** Replaces the configuration; takes effect at the next start. */
  setConfig(config: ServerConfig): void {
    this.config = config;
  }

  /** Connects; resolves when connected or failed (never rejects). */
  async start(): Promise<ServerSnapshot> {
    if (this.status === 'connecting' || this.status === 'connected') return this.snapshot();
    const generation = ++this.generation;
    this.error = undefined;
    this.stderrTail = [];
    this.setStatus('connecting');
    try {
      if (isStdioConfig(this.config)) await this.connectStdio(this.config, generation);
      else await this.connectRemote(this.config, generation);
      if (generation !== this.generation) return this.snapshot();
      this.connectedAt = Date.now();
      this.setStatus('connected');
    } catch (error) {
      if (generation !== this.generation) return this.snapshot();
      await this.teardown(true);
      this.error = describeError(error);
      this.setStatus('failed');
    }
    return this.snapshot();
  }

  /** Ends the server process (stdin close, SIGTERM, SIGKILL) and waits for it. */
  async stop(): Promise<ServerSnapshot> {
    this.generation++;
    await this.teardown();
    this.error = undefined;
    this.connectedAt = undefined;
    this.setStatus(this.config.disabled === true ? 'disabled' : 'stopped');
    return this.snapshot();
  }

  async callTool(toolName: string, argumentsJson: string, signal?: AbortSignal): Promise<ToolCallResult> {
    const client = this.requireCapability('tools');
    const tool = this.serverCatalog?.tools.find((t) => t.name === toolName);
    if (!tool) throw new HostError('not_found', `Server "${this.name}" has no tool named "${toolName}"`);
    const args = parseToolArguments(argumentsJson, tool.inputSchema);
    const started = performance.now();
    try {
      const result = await client.callTool(
        { name: toolName, arguments: args },
        { timeout: this.options.requestTimeoutMs ?? 60_000, ...(signal ? { signal } : {}) },
      );
      return toToolCallResult(result, Math.round(performance.now() - started));
    } catch (error) {
      throw this.requestFailure(error, `tools/call ${toolName}`);
    }
  }

  /**
   * Runs one request on the connected client (resources, prompts,
   * completions), turning any failure into one clear line naming the server.
   */
  async request<T>(what: string, run: (client: Client) => Promise<T>): Promise<T> {
    const client = this.client;
    if (this.status !== 'connected' || !client) {
      throw new HostError('not_connected', `Server "${this.name}" is not connected`);
    }
    try {
      return await run(client);
    } catch (error) {
      throw this.requestFailure(error, what);
    }
  }

  /** The roots this server may see changed: keep them and tell a connected server. */
  async setRoots(roots: readonly string[]): Promise<void> {
    this.config = { ...this.config, roots: [...roots] };
    const client = this.status === 'connected' ? this.client : undefined;
    // The server asks roots/list again when it wants them; a failed notice is not the user's problem.
    // Deprecated from 2026-07-28 on, but the legacy-era servers that ask for roots need it.
    // eslint-disable-next-line @typescript-eslint/no-deprecated
    await client?.sendRootsListChanged().catch((error: unknown) => {
      this.pushStderr(`[host] could not send roots/list_changed: ${describeError(error)}`);
    });
  }

  /** Streamable HTTP (or its HTTP+SSE fallback), then the catalog. */
  private async connectRemote(config: HttpServerConfig, generation: number): Promise<void> {
    const { client, session } = await connectHttp({
      serverName: this.name,
      config,
      env: this.options.baseEnv,
      newClient: ({ legacyOnly }) => this.newClient(generation, legacyOnly),
      connectTimeoutMs: this.options.connectTimeoutMs ?? 30_000,
      reconnection: this.options.httpReconnection,
    });
    if (generation !== this.generation) {
      // Stopped while connecting: this session is nobody's any more.
      await session.close().catch(() => undefined);
      await client.close().catch(() => undefined);
      return;
    }
    this.http = session;
    try {
      await this.serverCatalog?.load(client);
    } catch (error) {
      throw this.requestFailure(error, 'listing');
    }
  }

  private async connectStdio(config: StdioServerConfig, generation: number): Promise<void> {
    if (config.cwd !== undefined && config.cwd !== '') {
      const ok = await stat(config.cwd).then(
        (s) => s.isDirectory(),
        () => false,
      );
      if (!ok) throw new HostError('connection_failed', `Working directory does not exist: ${config.cwd}`);
    }
    const transport = new StdioProcessTransport(
      {
        command: config.command,
        args: config.args ?? [],
        env: { ...this.options.baseEnv, ...(config.env ?? {}) },
        cwd: config.cwd === '' ? undefined : config.cwd,
      },
      { graceMs: this.options.stopGraceMs ?? 2000 },
    );
    this.transport = transport;

    // A handshake that cannot succeed (the process died, or wrote garbage)
    // is cut short with the real reason instead of waiting for a timeout.
    let failFast: (error: HostError) => void = () => undefined;
    const fatal = new Promise<never>((_, reject) => {
      failFast = reject;
    });
    transport.onStderrLine = (line) => {
      this.pushStderr(line);
    };
    transport.onStdoutGarbage = (preview) => {
      const message = `Server wrote non-JSON to stdout (stdout is reserved for MCP messages): "${oneLine(preview, 120)}"`;
      if (this.status === 'connecting') failFast(new HostError('protocol_error', message));
      else this.pushStderr(`[stdout] ${preview}`);
    };
    transport.onExit = (exit) => {
      if (generation !== this.generation) return;
      if (this.status === 'connecting') {
        failFast(
          new HostError('server_exited', this.exitMessage(exit, 'before completing the MCP handshake')),
        );
      } else if (this.status === 'connected') {
        this.error = this.exitMessage(exit, 'unexpectedly');
        this.setStatus('failed');
      }
    };

    const client = this.newClient(generation);
    const handshake = async () => {
      await client.connect(transport, { timeout: this.options.connectTimeoutMs ?? 30_000 });
      await this.serverCatalog?.load(client);
    };
    // Whichever loses the race must not surface as an unhandled rejection:
    // an abandoned handshake rejects once the transport is torn down.
    fatal.catch(() => undefined);
    const running = handshake();
    running.catch(() => undefined);
    try {
      await Promise.race([running, fatal]);
    } catch (error) {
      throw this.requestFailure(error, 'initialize');
    }
  }

  /**
   * A fresh SDK client and catalog for one connection attempt. Strict
   * capabilities: besides our own `requireCapability` checks, the SDK refuses
   * any request whose capability the server did not declare.
   */
  private newClient(generation: number, legacyOnly = false): Client {
    this.serverCatalog?.dispose();
    const catalog = new ServerCatalog(this.name, {
      timeoutMs: this.options.requestTimeoutMs ?? 60_000,
      onWarning: (line) => {
        this.pushStderr(line);
      },
    });
    catalog.onChange(() => {
      if (generation === this.generation && this.status === 'connected') this.emit();
    });
    const client = new Client(
      { name: 'mcp-host', title: 'MCP Host', version: this.options.appVersion },
      {
        capabilities: {
          roots: { listChanged: true },
          ...(this.options.sampling ? { sampling: { tools: {} } } : {}),
          ...(this.options.elicitation ? { elicitation: { form: {}, url: {} } } : {}),
        },
        versionNegotiation: legacyOnly ? { mode: 'legacy' } : { mode: 'auto', probe: { timeoutMs: 5000 } },
        enforceStrictCapabilities: true,
        // Every page of every list; the cap only stops a cursor that never ends.
        listMaxPages: 1000,
        listChanged: catalog.listChangedHandlers(),
      },
    );
    installRootsHandler(client, () => this.config.roots ?? []);
    if (this.options.sampling) {
      const source = { server: this.name, instructions: () => client.getInstructions() };
      installSampling(client, source, this.options.sampling);
    }
    if (this.options.elicitation) installElicitation(client, this.name, this.options.elicitation);
    client.setNotificationHandler('notifications/resources/updated', (notification) => {
      if (generation === this.generation)
        this.options.onResourceUpdated?.(this.name, notification.params.uri);
    });
    this.serverCatalog = catalog;
    this.client = client;
    return client;
  }

  private countsForSnapshot(): ServerSnapshot['counts'] {
    const catalog = this.status === 'connected' ? this.serverCatalog : undefined;
    return catalog ? catalog.counts() : { tools: 0, resources: 0, resourceTemplates: 0, prompts: 0 };
  }

  /** Maps an SDK failure to one clear line, naming the server and what happened. */
  private requestFailure(error: unknown, what: string): HostError {
    if (error instanceof HostError) return error;
    const exit = this.transport?.exit;
    if (exit) return new HostError('server_exited', this.exitMessage(exit, `during ${what}`));
    if (error instanceof SdkError) {
      switch (error.code) {
        case SdkErrorCode.RequestTimeout:
          return new HostError('timeout', `Server "${this.name}" did not answer ${what} in time`);
        case SdkErrorCode.ConnectionClosed:
          return new HostError('server_exited', `Server "${this.name}" closed the connection during ${what}`);
        case SdkErrorCode.CapabilityNotSupported:
          return new HostError('not_found', `Server "${this.name}": ${describeError(error)}`);
        default:
          return new HostError('protocol_error', `Server "${this.name}": ${describeError(error)}`);
      }
    }
    if (error instanceof ProtocolError) {
      return new HostError(
        'protocol_error',
        `Server "${this.name}" answered ${what} with an error: ${error.message}`,
      );
    }
    if (error instanceof Error && error.name === 'AbortError') {
      return new HostError('cancelled', `${what} was cancelled`);
    }
    return new HostError('connection_failed', `Server "${this.name}": ${describeError(error)}`);
  }

  private exitMessage(exit: ProcessExit, when: string): string {
    const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${String(exit.code)}`;
    const last = this.stderrTail.slice(-3).join(' | ');
    return `Server "${this.name}" ${how} ${when}${last ? `. Last stderr: ${last}` : ''}`;
  }

  private pushStderr(line: string): void {
    this.stderrTail.push(line);
    if (this.stderrTail.length > STDERR_TAIL_LINES) this.stderrTail.shift();
  }

  /** Ends the client and its process; a failed handshake skips the polite stdin-close step. */
  private async teardown(failed = false): Promise<void> {
    const client = this.client;
    const transport = this.transport;
    const http = this.http;
    this.client = undefined;
    this.http = undefined;
    this.serverCatalog?.dispose();
    if (failed) await transport?.terminate();
    await http?.close();
    // Client.close closes the transport, which runs the stop sequence (once).
    await client?.close().catch(() => undefined);
    await transport?.close();
  }

  private setStatus(status: ServerStatus): void {
    this.status = status;
    this.emit();
  }

  private emit(): void {
    this.options.onChange(this.snapshot());
  }
}

function describeTarget(config: ServerConfig): string {
  if (!isStdioConfig(config)) return config.url;
  const quote = (s: string) => (/[\s"']/.test(s) ? JSON.stringify(s) : s);
  return [config.command, ...(config.args ?? [])].map(quote).join(' ');
}
