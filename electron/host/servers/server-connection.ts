import { Client, ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { Tool } from '@modelcontextprotocol/client';
import { isStdioConfig } from '../../../shared/model/config.js';
import type { ServerConfig, StdioServerConfig } from '../../../shared/model/config.js';
import { ToolInfoSchema } from '../../../shared/model/server.js';
import type {
  ServerRuntime,
  ServerSnapshot,
  ServerStatus,
  ToolCallResult,
  ToolInfo,
} from '../../../shared/model/server.js';
import { HostError, describeError, oneLine } from '../errors.js';
import { HealthMonitor } from './health-monitor.js';
import { resolveLaunch } from './launch-spec.js';
import type { HostEnvironment } from './login-env.js';
import { GuardedRequest, requestPolicyOf } from './request-policy.js';
import type { ProgressUpdate } from './request-policy.js';
import { RestartPolicy } from './restart-policy.js';
import type { RestartPolicyOptions } from './restart-policy.js';
import { StdioProcessTransport } from './stdio-transport.js';
import type { ProcessExit } from './stdio-transport.js';
import { parseToolArguments } from './tool-arguments.js';
import { toToolCallResult } from './tool-result.js';

/** Lifecycle settings that are not per-server configuration (tests and the bench shorten them). */
export interface ConnectionTuning {
  /** Handshake time limit. Default 30 s. */
  connectTimeoutMs?: number;
  /** Grace period of each stop step. Default 2 s. */
  stopGraceMs?: number;
  /** Backoff and give-up rule for automatic restarts. */
  restart?: RestartPolicyOptions;
  /** Ping an idle server this often; 0 turns health checks off. Default 30 s. */
  pingIntervalMs?: number;
  /** A ping unanswered for this long marks the server failed. Default 10 s. */
  pingTimeoutMs?: number;
}

export interface ConnectionOptions extends ConnectionTuning {
  appVersion: string;
  /** The host environment (login shell over process); awaited only when a stdio server is spawned. */
  environment: () => Promise<HostEnvironment>;
  onChange: (snapshot: ServerSnapshot) => void;
}

export interface CallOptions {
  /** Aborting cancels the call (the server gets notifications/cancelled). */
  signal?: AbortSignal | undefined;
  onProgress?: ((update: ProgressUpdate) => void) | undefined;
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
  private tools: ToolInfo[] = [];
  private counts = { tools: 0, resources: 0, prompts: 0 };
  private stderrTail: string[] = [];
  private connectedAt: number | undefined;
  private runtime: ServerRuntime | undefined;
  /** Bumped on every start/stop/crash so that late events of an old process are ignored. */
  private generation = 0;
  private readonly restarts: RestartPolicy;
  private restartTimer: NodeJS.Timeout | undefined;
  private restartAt: number | undefined;
  private health: HealthMonitor | undefined;
  /** Requests in flight, so health checks only ping a quiet server. */
  private inFlight = 0;

  constructor(
    readonly name: string,
    private config: ServerConfig,
    private readonly options: ConnectionOptions,
  ) {
    if (config.disabled === true) this.status = 'disabled';
    this.restarts = new RestartPolicy(options.restart);
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
      tools: this.status === 'connected' ? this.tools : [],
      counts: this.counts,
      ...(this.transport?.pid !== undefined && this.status !== 'stopped' ? { pid: this.transport.pid } : {}),
      stderrTail: [...this.stderrTail],
      ...(this.connectedAt !== undefined ? { connectedAt: this.connectedAt } : {}),
      ...(this.restarts.crashCount > 0 ? { crashCount: this.restarts.crashCount } : {}),
      ...(this.status === 'restarting' && this.restartAt !== undefined ? { restartAt: this.restartAt } : {}),
      ...(this.runtime !== undefined ? { runtime: this.runtime } : {}),
    };
  }

  get currentStatus(): ServerStatus {
    return this.status;
  }

  /** Replaces the configuration; takes effect at the next start. */
  setConfig(config: ServerConfig): void {
    this.config = config;
  }

  /**
   * Connects; resolves when connected or failed (never rejects). A person
   * starting the server (rather than an automatic restart) clears its crash
   * count and any scheduled restart.
   */
  async start(): Promise<ServerSnapshot> {
    if (this.status === 'connecting' || this.status === 'connected') return this.snapshot();
    this.cancelRestart();
    this.restarts.reset();
    return this.connect(false);
  }

  /** Stops (if running) and starts again, as a person asked; clears the crash count. */
  async restart(): Promise<ServerSnapshot> {
    await this.stop();
    return this.start();
  }

  private async connect(automatic: boolean): Promise<ServerSnapshot> {
    const generation = ++this.generation;
    // An automatic restart keeps the crash's reason and the process's last words visible.
    if (!automatic) {
      this.error = undefined;
      this.stderrTail = [];
    }
    this.tools = [];
    this.counts = { tools: 0, resources: 0, prompts: 0 };
    this.restartAt = undefined;
    this.setStatus('connecting');
    try {
      if (!isStdioConfig(this.config)) {
        throw new HostError(
          'connection_failed',
          'Remote (HTTP) servers are not supported by this version yet',
        );
      }
      await this.connectStdio(this.config, generation);
      if (generation !== this.generation) return this.snapshot();
      this.connectedAt = Date.now();
      this.error = undefined;
      this.setStatus('connected');
      this.watchHealth(generation);
    } catch (error) {
      if (generation !== this.generation) return this.snapshot();
      await this.teardown(true);
      if (generation !== this.generation) return this.snapshot();
      if (automatic) {
        this.crashed(describeError(error));
      } else {
        this.error = describeError(error);
        this.setStatus('failed');
      }
    }
    return this.snapshot();
  }

  /**
   * The server went away while in use (exit, crash, unanswered ping) or a
   * restart attempt failed: restart with backoff, or give up after too many
   * crashes in the window. Pending requests have already failed with the reason.
   */
  private crashed(reason: string): void {
    const generation = ++this.generation;
    this.health?.stop();
    this.connectedAt = undefined;
    // Whatever is left of the old process goes; its pending requests fail with the reason.
    void this.teardown(true);
    if (this.config.autoRestart === false) {
      this.error = reason;
      this.setStatus('failed');
      return;
    }
    const decision = this.restarts.recordCrash();
    if (decision.action === 'give-up') {
      const minutes = Math.round(decision.windowMs / 60_000);
      this.error = `${reason}. Crashed ${String(decision.crashCount)} times within ${String(minutes)} min, so it was not restarted again; restart it when fixed`;
      this.setStatus('failed');
      return;
    }
    this.error = reason;
    this.restartAt = Date.now() + decision.delayMs;
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (generation !== this.generation) return;
      // Never rejects: a failed attempt counts as another crash.
      void this.connect(true);
    }, decision.delayMs);
    this.setStatus('restarting');
  }

  private cancelRestart(): void {
    clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    this.restartAt = undefined;
  }

  private watchHealth(generation: number): void {
    const client = this.client;
    if (!client) return;
    this.health?.stop();
    this.health = new HealthMonitor(
      this.options.pingIntervalMs ?? 30_000,
      this.options.pingTimeoutMs ?? 10_000,
      () => this.inFlight > 0,
      (timeout) => client.ping({ timeout }),
      (reason) => {
        if (generation !== this.generation || this.status !== 'connected') return;
        this.pushStderr(`[host] ${reason}`);
        this.crashed(`Server "${this.name}" ${reason}`);
      },
    );
    this.health.start();
  }

  /** Ends the server process (stdin close, SIGTERM, SIGKILL) and waits for it. */
  async stop(): Promise<ServerSnapshot> {
    this.generation++;
    this.cancelRestart();
    this.health?.stop();
    await this.teardown();
    this.error = undefined;
    this.connectedAt = undefined;
    this.setStatus(this.config.disabled === true ? 'disabled' : 'stopped');
    return this.snapshot();
  }

  /**
   * Calls a tool under the server's request policy: `timeout` of silence
   * (each progress notification restarts it) up to `maxTotalTimeout`;
   * aborting `signal` cancels it on the server too.
   */
  async callTool(
    toolName: string,
    argumentsJson: string,
    options: CallOptions = {},
  ): Promise<ToolCallResult> {
    const client = this.client;
    const transport = this.transport;
    if (this.status !== 'connected' || !client) {
      const why = this.status === 'restarting' ? ' (it is restarting after a crash)' : '';
      throw new HostError('not_connected', `Server "${this.name}" is not connected${why}`);
    }
    const tool = this.tools.find((t) => t.name === toolName);
    if (!tool) throw new HostError('not_found', `Server "${this.name}" has no tool named "${toolName}"`);
    const args = parseToolArguments(argumentsJson, tool.inputSchema);
    const what = `tools/call ${toolName}`;
    const guard = new GuardedRequest(requestPolicyOf(this.config), options.onProgress, options.signal);
    const started = performance.now();
    this.inFlight++;
    try {
      const result = await client.callTool({ name: toolName, arguments: args }, guard.options);
      return toToolCallResult(result, Math.round(performance.now() - started));
    } catch (error) {
      const timedOut = error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout;
      const maxTotal = timedOut && /maximum total/i.test(error.message);
      throw guard.failure(this.name, what, timedOut, maxTotal) ?? this.requestFailure(error, what, transport);
    } finally {
      this.inFlight--;
      guard.dispose();
    }
  }

  private async connectStdio(config: StdioServerConfig, generation: number): Promise<void> {
    const environment = await this.options.environment();
    const { launch, runtime } = await resolveLaunch(this.name, config, environment);
    if (generation !== this.generation) return;
    this.runtime = runtime;
    if (runtime.note !== undefined) this.pushStderr(`[host] ${runtime.note}`);
    const transport = new StdioProcessTransport(launch, { graceMs: this.options.stopGraceMs ?? 2000 });
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
        this.crashed(this.exitMessage(exit, 'unexpectedly'));
      }
    };

    const client = new Client(
      { name: 'mcp-host', title: 'MCP Host', version: this.options.appVersion },
      {
        capabilities: {},
        versionNegotiation: { mode: 'auto', probe: { timeoutMs: 5000 } },
        listChanged: {
          tools: {
            onChanged: (error, tools) => {
              if (error || !tools || generation !== this.generation) return;
              this.setTools(tools);
              this.emit();
            },
          },
        },
      },
    );
    this.client = client;
    const handshake = async () => {
      await client.connect(transport, { timeout: this.options.connectTimeoutMs ?? 30_000 });
      const caps = client.getServerCapabilities() ?? {};
      const [tools, resources, prompts] = await Promise.all([
        caps.tools ? client.listTools() : undefined,
        caps.resources ? client.listResources() : undefined,
        caps.prompts ? client.listPrompts() : undefined,
      ]);
      if (tools) this.setTools(tools.tools);
      this.counts = {
        tools: this.tools.length,
        resources: resources?.resources.length ?? 0,
        prompts: prompts?.prompts.length ?? 0,
      };
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

  private setTools(tools: Tool[]): void {
    const parsed: ToolInfo[] = [];
    for (const tool of tools) {
      const result = ToolInfoSchema.safeParse(tool);
      if (result.success) parsed.push(result.data);
      else
        this.pushStderr(`[host] ignored a malformed tool definition: ${oneLine(JSON.stringify(tool), 200)}`);
    }
    this.tools = parsed;
    this.counts = { ...this.counts, tools: parsed.length };
  }

  /** Maps an SDK failure to one clear line, naming the server and what happened. */
  private requestFailure(error: unknown, what: string, transport = this.transport): HostError {
    if (error instanceof HostError) return error;
    const exit = transport?.exit;
    if (exit) return new HostError('server_exited', this.exitMessage(exit, `during ${what}`));
    if (error instanceof SdkError) {
      switch (error.code) {
        case SdkErrorCode.RequestTimeout:
          return new HostError('timeout', `Server "${this.name}" did not answer ${what} in time`);
        case SdkErrorCode.ConnectionClosed:
          return new HostError('server_exited', `Server "${this.name}" closed the connection during ${what}`);
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
    // Repeated lines (the same complaint at each restart) are said once.
    const last = [...new Set(this.stderrTail.filter((l) => !l.startsWith('[host]')).slice(-3))].join(' | ');
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
    this.client = undefined;
    if (failed) await transport?.terminate();
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
