import { InMemoryResponseCacheStore, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { Client, FetchLike } from '@modelcontextprotocol/client';
import type { PriorDiscovery, StreamableHTTPReconnectionOptions } from '@modelcontextprotocol/client';
import { isStdioConfig } from '../../../shared/model/config.js';
import type { HttpServerConfig, ServerConfig, StdioServerConfig } from '../../../shared/model/config.js';
import type {
  ServerRuntime,
  ServerSnapshot,
  ServerStatus,
  ToolCallResult,
  ToolInfo,
} from '../../../shared/model/server.js';
import type { ServerIdentity } from '../../../shared/model/consent-rules.js';
import { serverIdentity } from '../consent/server-identity.js';
import type { ClientFeature } from '../client-features/client-feature.js';
import { HostError, describeError } from '../errors.js';
import { describeExitStatus, requestFailure } from './connection-failure.js';
import { priorFor, recordEra, stdioIdentity } from './stdio/era-verdicts.js';
import { createServerClient } from './server-client.js';
import type { EraVerdicts } from './stdio/era-verdicts.js';
import { describeTarget, launchFacts, negotiatedFacts } from './connection-facts.js';
import { launcherLines } from './stdio/launcher-output.js';
import { connectStdio, probePatienceMs } from './stdio/stdio-handshake.js';
import { ServerOutput, strayCountText } from './lifecycle/server-output.js';
import { connectHttp, resolveUrl } from './http/http-transport.js';
import { ServerAuthSession } from '../auth/server-auth.js';
import type { OAuthServices } from '../auth/server-auth.js';
import type { HttpSession } from './http/http-transport.js';
import { ServerCatalog } from './server-catalog.js';
import { requireCapability } from './capabilities.js';
import { HealthMonitor } from './lifecycle/health-monitor.js';
import { resolveLaunch } from './stdio/launch-spec.js';
import type { HostEnvironment } from './stdio/login-env.js';
import { GuardedRequest, requestPolicyOf } from './lifecycle/request-policy.js';
import type { ProgressUpdate } from './lifecycle/request-policy.js';
import { RestartPolicy } from './lifecycle/restart-policy.js';
import type { RestartPolicyOptions } from './lifecycle/restart-policy.js';
import type { ProcessExit, StdioProcessTransport } from './stdio/stdio-transport.js';
import { parseToolArguments } from './tool-arguments.js';
import type { LogLevel } from '../../../shared/model/logs.js';
import type { NewLogEntry } from './lifecycle/server-log.js';
import { toToolCallResult } from './tool-result.js';
import { expandSecrets } from '../secrets/server-secrets.js';

/** Lifecycle settings that are not per-server configuration (tests and the bench shorten them). */
export interface ConnectionTuning {
  /** Handshake time limit when the server's entry sets no `connectTimeout`. Default 120 s. */
  connectTimeoutMs?: number;
  /** Grace period of each stop step. Default 2 s. */
  stopGraceMs?: number;
  /** Reconnection of broken SSE streams of remote servers. Default DEFAULT_HTTP_RECONNECTION. */
  httpReconnection?: StreamableHTTPReconnectionOptions;
  /** Backoff and give-up rule for automatic restarts. */
  restart?: RestartPolicyOptions;
  /** Ping an idle server this often; 0 turns health checks off. Default 30 s. */
  pingIntervalMs?: number;
  /** A ping unanswered for this long marks the server failed. Default 10 s. */
  pingTimeoutMs?: number;
  /** How long an OAuth sign-in waits for the browser. Default 5 min. */
  signInTimeoutMs?: number;
}

export interface ConnectionOptions extends ConnectionTuning {
  appVersion: string;
  /** The host environment (login shell over process); awaited only when a stdio server is spawned. */
  environment: () => Promise<HostEnvironment>;
  onChange: (snapshot: ServerSnapshot) => void;
  /** Receives the server's log: stderr lines, notifications/message, lifecycle events. */
  onLog?: (entry: NewLogEntry) => void;
  /** A resource this server's client subscribed to changed (`notifications/resources/updated`). */
  onResourceUpdated?: (server: string, uri: string) => void;
  /** What the client offers the server (client-features/feature-list.ts); absent: roots and MCP Apps only. */
  clientFeatures?: readonly ClientFeature[];
  /** Remembered protocol eras of stdio servers, so a restart does not probe again. */
  eraVerdicts?: EraVerdicts;
  /** OAuth for remote servers (sign-in, tokens); absent: remote servers use static headers only. */
  oauth?: OAuthServices;
  /**
   * The secrets a stdio entry's `${user_config.KEY}` references stand for (a
   * server installed from a bundle); asked for at each spawn, never stored in
   * the entry. Throws when the entry may not have them.
   */
  launchSecrets?: (name: string, config: StdioServerConfig) => Promise<Readonly<Record<string, string>>>;
  /**
   * The stored secrets of this entry (its name and configuration as written),
   * put in place of `${secret:NAME}` just before a spawn or connect.
   */
  secrets?: (server: string, config: ServerConfig) => Promise<Readonly<Record<string, string>>>;
}

/**
 * Default time a server has to complete the MCP handshake: long enough for
 * the first `npx -y` run, which downloads the package before the server starts.
 */
export const DEFAULT_CONNECT_TIMEOUT_MS = 120_000;

export interface CallOptions {
  /** Aborting cancels the call (the server gets notifications/cancelled). */
  signal?: AbortSignal | undefined;
  onProgress?: ((update: ProgressUpdate) => void) | undefined;
}

/** Snapshots pushed for stray stdout lines are at most this often, so a spewing server cannot flood the UI. */
const STRAY_EMIT_INTERVAL_MS = 500;

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
  private readonly output: ServerOutput;
  private connectedAt: number | undefined;
  private startingSince: number | undefined;
  private strayEmitTimer: NodeJS.Timeout | undefined;
  private runtime: ServerRuntime | undefined;
  /** Bumped on every start/stop/crash so that late events of an old process are ignored. */
  private generation = 0;
  private readonly restarts: RestartPolicy;
  private restartTimer: NodeJS.Timeout | undefined;
  private restartAt: number | undefined;
  private health: HealthMonitor | undefined;
  /** Requests in flight, so health checks only ping a quiet server. */
  private inFlight = 0;
  /** The identity of `config`, computed once per configuration object. */
  private identityOf: { config: ServerConfig; identity: ServerIdentity } | undefined;
  /** OAuth of a remote server, created at its first connect. */
  private authSession: ServerAuthSession | undefined;
  /** The sign-in in progress: settles (never rejects) once its outcome is applied, before any reconnect. */
  private signInFlow: Promise<void> | undefined;
  /** The log level asked of a 2026-07-28 server in each request's _meta; kept across reconnects. */
  private requestLogLevel: LogLevel | undefined;
  /** Cacheable results (lists with their ttlMs) across this server's connections; emptied when its config changes. */
  private readonly responseCache = new InMemoryResponseCacheStore();

  constructor(
    readonly name: string,
    private config: ServerConfig,
    private readonly options: ConnectionOptions,
  ) {
    if (config.disabled === true) this.status = 'disabled';
    this.restarts = new RestartPolicy(options.restart);
    this.output = new ServerOutput((entry) => {
      this.options.onLog?.(entry);
      if (entry.source === 'stdout') this.strayLineSeen();
    });
  }

  snapshot(): ServerSnapshot {
    const client = this.status === 'connected' ? this.client : undefined;
    const auth = this.authSession?.describe();
    return {
      ...(auth !== undefined ? { auth } : {}),
      name: this.name,
      transport: isStdioConfig(this.config) ? 'stdio' : 'http',
      target: describeTarget(this.config),
      ...(client && this.http ? { httpTransport: this.http.kind } : {}),
      status: this.status,
      ...(this.error !== undefined ? { error: this.error } : {}),
      ...negotiatedFacts(client),
      tools: client && this.serverCatalog ? this.toolsWithDisabledFlags(this.serverCatalog.tools) : [],
      ...(client && this.serverCatalog?.toolsCapped ? { toolsCapped: this.serverCatalog.toolsCapped } : {}),
      counts: this.countsForSnapshot(),
      ...(this.transport?.pid !== undefined && this.status !== 'stopped' ? { pid: this.transport.pid } : {}),
      stderrTail: this.output.stderrTail,
      ...(this.connectedAt !== undefined ? { connectedAt: this.connectedAt } : {}),
      ...(this.status === 'connecting' && this.startingSince !== undefined
        ? { startingSince: this.startingSince }
        : {}),
      connectTimeoutMs: this.connectTimeoutMs,
      ...launchFacts(this.config, this.output),
      ...(this.restarts.crashCount > 0 ? { crashCount: this.restarts.crashCount } : {}),
      ...(this.status === 'restarting' && this.restartAt !== undefined ? { restartAt: this.restartAt } : {}),
      ...(this.runtime !== undefined ? { runtime: this.runtime } : {}),
      identity: this.identity,
    };
  }

  /** What this name stands for now (program or URL): consent rules are bound to it. */
  get identity(): ServerIdentity {
    if (this.identityOf?.config !== this.config) {
      this.identityOf = { config: this.config, identity: serverIdentity(this.config) };
    }
    return this.identityOf.identity;
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
    if (!client) {
      const why = this.status === 'restarting' ? ' (it is restarting after a crash)' : '';
      throw new HostError('not_connected', `Server "${this.name}" is not connected${why}`);
    }
    requireCapability(this.name, client.getServerCapabilities(), feature);
    return client;
  }

  /** Replaces the configuration; takes effect at the next start. */
  setConfig(config: ServerConfig): void {
    this.config = config;
    // Another command or URL may be another server: nothing cached from this one carries over.
    this.responseCache.clear();
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

  /**
   * OAuth sign-in, as the person asked: opens the authorization page in the
   * browser and resolves once it is open (or the attempt already ended);
   * the rest arrives as snapshots: connected, or "sign-in-required" with
   * the reason.
   */
  async signIn(): Promise<ServerSnapshot> {
    const session = await this.preparedAuthSession();
    let opened: () => void = () => undefined;
    const browserOpened = new Promise<void>((resolve) => {
      opened = resolve;
    });
    const generation = this.generation;
    // Settles once the sign-in's outcome is applied (before any reconnect), never rejects.
    const signedIn = session.signIn(opened).then(
      () => {
        this.log('info', 'Signed in');
        return true;
      },
      (error: unknown) => {
        this.log('warning', describeError(error));
        if (this.status !== 'connected') this.setStatus('sign-in-required');
        else this.emit();
        return false;
      },
    );
    this.signInFlow = signedIn.then(() => undefined);
    const flow = signedIn.then(async (ok) => {
      if (ok && (generation === this.generation || this.status === 'sign-in-required'))
        await this.connect(false);
    });
    await Promise.race([browserOpened, flow]);
    return this.snapshot();
  }

  /** Stops waiting for the browser; the server stays "sign-in-required". */
  async cancelSignIn(): Promise<ServerSnapshot> {
    this.authSession?.cancel();
    // Answer once the sign-in has ended, so the reply is not older than the events it caused.
    await this.signInFlow;
    return this.snapshot();
  }

  /** Revokes and forgets the tokens; the server is disconnected and shows "Sign-in required". */
  async signOut(): Promise<ServerSnapshot> {
    const session = this.authSession;
    if (!session) return this.snapshot();
    await this.stop();
    // Lists cached for the signed-out account are not another account's.
    this.responseCache.clear();
    const line = await session.signOut();
    session.markRequired(line);
    this.log(line === 'Signed out' ? 'info' : 'warning', line);
    this.setStatus('sign-in-required');
    return this.snapshot();
  }

  /** The auth session, prepared for the current configuration (a sign-in may come before any connect). */
  private async preparedAuthSession(): Promise<ServerAuthSession> {
    const config = this.config;
    if (isStdioConfig(config) || !this.options.oauth) {
      throw new HostError('invalid_params', `Server "${this.name}" is not a remote server that signs in`);
    }
    const session = this.authSessionFor();
    const env = (await this.options.environment()).all;
    const url = resolveUrl({ config, env, serverName: this.name });
    await session.prepare(config, url.href, env, globalThis.fetch);
    return session;
  }

  private authSessionFor(): ServerAuthSession {
    const services = this.options.oauth;
    if (!services) throw new HostError('internal', 'OAuth is not available');
    this.authSession ??= new ServerAuthSession(
      this.name,
      services,
      this.options.appVersion,
      () => {
        this.emit();
      },
      (level, text) => {
        this.log(level, text);
      },
    );
    return this.authSession;
  }

  /** A connect or request failed for want of a sign-in: disconnect and show "Sign-in required". */
  private signInRequired(failure: HostError): void {
    this.generation++;
    this.health?.stop();
    this.connectedAt = undefined;
    void this.teardown(true);
    this.authSession?.markRequired(failure.message);
    this.error = undefined;
    this.setStatus('sign-in-required');
    this.log('warning', failure.message);
  }

  private async connect(automatic: boolean): Promise<ServerSnapshot> {
    const generation = ++this.generation;
    // An automatic restart keeps the crash's reason and the process's last words visible.
    if (!automatic) {
      this.error = undefined;
      this.output.reset();
    }
    this.restartAt = undefined;
    this.startingSince = Date.now();
    this.setStatus('connecting');
    this.log('info', `Starting: ${describeTarget(this.config)}`);
    try {
      if (isStdioConfig(this.config)) await this.connectStdio(this.config, generation);
      else await this.connectRemote(this.config, generation);
      if (generation !== this.generation) return this.snapshot();
      this.connectedAt = Date.now();
      this.error = undefined;
      this.authSession?.clearRequired();
      this.setStatus('connected');
      this.logConnected();
      this.watchHealth(generation);
    } catch (error) {
      if (generation !== this.generation) return this.snapshot();
      const signIn = this.authSession?.signInFailure(error);
      if (signIn) {
        this.signInRequired(signIn);
        return this.snapshot();
      }
      await this.teardown(true);
      if (generation !== this.generation) return this.snapshot();
      if (automatic) {
        this.crashed(describeError(error));
      } else {
        this.error = describeError(error);
        this.setStatus('failed');
        this.log('error', `Failed: ${this.error}`);
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
      this.log('error', this.error);
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
    this.log('warning', `${reason}. Restarting in ${String(Math.ceil(decision.delayMs / 1000))} s`);
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
      // The 2026-07-28 wire has no ping; server/discover is its cheap, side-effect-free request.
      (timeout) =>
        client.getProtocolEra() === 'modern' ? client.discover({ timeout }) : client.ping({ timeout }),
      (reason) => {
        if (generation !== this.generation || this.status !== 'connected') return;
        this.output.note(reason, 'error');
        this.crashed(`Server "${this.name}" ${reason}`);
      },
    );
    this.health.start();
  }

  /** Ends the server process (stdin close, SIGTERM, SIGKILL) and waits for it. */
  async stop(): Promise<ServerSnapshot> {
    const wasRunning = this.status === 'connecting' || this.status === 'connected';
    this.generation++;
    this.cancelRestart();
    this.health?.stop();
    await this.teardown();
    this.error = undefined;
    this.connectedAt = undefined;
    this.setStatus(this.config.disabled === true ? 'disabled' : 'stopped');
    if (wasRunning) this.log('info', this.config.disabled === true ? 'Stopped (disabled)' : 'Stopped');
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
    if (this.config.disabledTools?.includes(toolName) === true) {
      throw new HostError(
        'denied',
        `Tool "${toolName}" of server "${this.name}" is disabled in its settings`,
      );
    }
    const transport = this.transport;
    const client = this.requireCapability('tools');
    const tool = this.serverCatalog?.tool(toolName);
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
      this.output.note(`could not send roots/list_changed: ${describeError(error)}`);
    });
  }

  /** Streamable HTTP (or its HTTP+SSE fallback), then the catalog. */
  private async connectRemote(config: HttpServerConfig, generation: number): Promise<void> {
    const env = (await this.options.environment()).all;
    const { client, session } = await connectHttp({
      serverName: this.name,
      config: await this.withSecrets(config),
      env,
      newClient: ({ legacyOnly }) =>
        this.newClient(
          generation,
          legacyOnly ? 'legacy-only' : undefined,
          Math.floor(this.connectTimeoutMs / 2),
        ),
      connectTimeoutMs: this.connectTimeoutMs,
      reconnection: this.options.httpReconnection,
      ...(this.options.oauth
        ? {
            prepareAuth: (resource: string, base: FetchLike) =>
              this.authSessionFor().prepare(config, resource, env, base),
          }
        : {}),
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

  /**
   * Spawns the server and completes the handshake (stdio-handshake.ts), with
   * the era remembered for this program if there is one; records the era it
   * settled on for the next start.
   */
  private async connectStdio(config: StdioServerConfig, generation: number): Promise<void> {
    const environment = await this.options.environment();
    const secrets = await this.options.launchSecrets?.(this.name, config);
    const { launch, runtime } = await resolveLaunch(
      this.name,
      await this.withSecrets(config),
      environment,
      undefined,
      secrets,
    );
    if (generation !== this.generation) return;
    this.runtime = runtime;
    if (runtime.note !== undefined) this.output.note(runtime.note, 'info');
    const verdicts = this.options.eraVerdicts;
    const identity = stdioIdentity(config);
    const remembered = verdicts?.get(this.name);
    const prior = priorFor(remembered, identity);
    const launcher = launcherLines(config.command, config.args ?? []);
    const { client, transport, settledBy } = await connectStdio({
      name: this.name,
      launch,
      graceMs: this.options.stopGraceMs ?? 2000,
      connectTimeoutMs: this.connectTimeoutMs,
      prior,
      isCurrent: () => generation === this.generation,
      output: this.output,
      newClient: () => this.newClient(generation, prior, probePatienceMs(this.connectTimeoutMs)),
      afterConnect: (connected) => this.serverCatalog?.load(connected) ?? Promise.resolve(),
      adopt: (attempt) => {
        this.transport = attempt;
        this.output.newProcess(launcher);
        if (generation === this.generation) this.emit();
      },
      onProcessExit: (exit) => {
        this.logExit(exit);
      },
      onRetry: (reason) => {
        this.output.note(reason, 'warning');
      },
      describeFailure: (error, attempt) => this.requestFailure(error, 'initialize', attempt),
      describeExit: (exit, attempt) =>
        this.exitMessage(exit, 'before completing the MCP handshake', attempt.pendingStdout),
    });
    this.client = client;
    if (generation !== this.generation) return;
    transport.onExit = (exit) => {
      this.logExit(exit);
      if (generation === this.generation && this.status === 'connected') {
        this.crashed(this.exitMessage(exit, 'unexpectedly'));
      }
    };
    if (verdicts) {
      const settled =
        settledBy === 'prior'
          ? { by: 'prior' as const, rememberedVersion: remembered?.serverVersion }
          : { by: 'probe' as const };
      const note = recordEra(verdicts, this.name, client, identity, settled);
      if (note !== undefined) this.log('info', note);
    }
  }

  /**
   * The entry with its `${secret:NAME}` references (env values, arguments,
   * headers) replaced by the stored values; only what is spawned or sent
   * sees them, never the snapshot, the log or the remembered era.
   */
  private async withSecrets<T extends ServerConfig>(config: T): Promise<T> {
    if (!this.options.secrets || !JSON.stringify(config).includes('${secret:')) return config;
    const secrets = await this.options.secrets(this.name, config);
    const expand = (text: string, where: string) => expandSecrets(text, secrets, this.name, where);
    const table = (values: Record<string, string> | undefined, where: string) =>
      values && Object.fromEntries(Object.entries(values).map(([k, v]) => [k, expand(v, `${where} ${k}`)]));
    if (isStdioConfig(config)) {
      return {
        ...config,
        args: config.args?.map((arg, i) => expand(arg, `argument ${String(i + 1)}`)),
        env: table(config.env, 'env'),
      };
    }
    return { ...config, headers: table(config.headers, 'header') };
  }

  /** A fresh SDK client (server-client.ts) and catalog for one connection attempt. */
  private newClient(
    generation: number,
    negotiation: PriorDiscovery | 'legacy-only' | undefined,
    probeTimeoutMs: number,
  ): Client {
    this.serverCatalog?.dispose();
    const catalog = new ServerCatalog(this.name, {
      timeoutMs: requestPolicyOf(this.config).timeoutMs,
      onWarning: (line) => {
        this.output.note(line.replace(/^\[host\] /, ''), 'warning');
      },
    });
    catalog.onChange(() => {
      if (generation === this.generation && this.status === 'connected') this.emit();
    });
    const client = createServerClient({
      server: this.name,
      appVersion: this.options.appVersion,
      negotiation,
      probeTimeoutMs,
      config: () => this.config,
      listChanged: catalog.listChangedHandlers(),
      features: this.options.clientFeatures,
      onResourceUpdated: (uri) => {
        if (generation === this.generation) this.options.onResourceUpdated?.(this.name, uri);
      },
      onLog: (entry) => this.options.onLog?.(entry),
      responseCache: this.responseCache,
      requestLogLevel: () => this.requestLogLevel,
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
  private requestFailure(error: unknown, what: string, transport = this.transport): HostError {
    if (error instanceof SdkError && /insufficient_scope after step-up/.test(error.message)) {
      // Re-authorized once for this request and still refused: the sign-in cannot grant more.
      return new HostError(
        'denied',
        `Server "${this.name}" refused ${what}: it still asks for more permissions after the sign-in was renewed`,
      );
    }
    const signIn = this.authSession?.signInFailure(error);
    if (signIn) {
      // The token was refused and could not be renewed: the server now waits for a sign-in.
      if (this.status === 'connected') this.signInRequired(signIn);
      return signIn;
    }
    const exit = transport?.exit;
    return requestFailure(
      this.name,
      error,
      what,
      exit ? { status: exit, lastWords: this.output.lastWords(transport.pendingStdout) } : undefined,
    );
  }

  private exitMessage(exit: ProcessExit, when: string, pendingStdout = ''): string {
    const words = this.output.lastWords(pendingStdout);
    return `Server "${this.name}" ${describeExitStatus(exit)} ${when}${words ? `. ${words}` : ''}`;
  }

  /** The time this server may take to complete the MCP handshake. */
  private get connectTimeoutMs(): number {
    return this.config.connectTimeout ?? this.options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  }

  /** A stray stdout line was counted: the UI hears of it, at most twice a second. */
  private strayLineSeen(): void {
    if (this.strayEmitTimer) return;
    const first = this.output.strayStdout?.count === 1;
    if (first && this.status === 'connected') {
      this.log('warning', `The server ${strayCountText(1)}; such lines are skipped`);
    }
    this.strayEmitTimer = setTimeout(() => {
      this.strayEmitTimer = undefined;
      if (this.status === 'connected' || this.status === 'connecting') this.emit();
    }, STRAY_EMIT_INTERVAL_MS);
    this.strayEmitTimer.unref();
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

  // ---- Logs and disabled tools (issue 3, part C): kept together, apart from the lifecycle code above.

  /** logging/setLevel on the live connection; the server must have declared `logging`. */
  async setLogLevel(level: LogLevel): Promise<void> {
    const client = this.client;
    if (this.status !== 'connected' || !client) {
      throw new HostError('not_connected', `Server "${this.name}" is not connected`);
    }
    if (client.getServerCapabilities()?.logging === undefined) {
      throw new HostError('invalid_params', `Server "${this.name}" does not support setting a log level`);
    }
    if (client.getProtocolEra() === 'modern') {
      // 2026-07-28 has no logging/setLevel: the level travels in the _meta of every request.
      this.requestLogLevel = level;
      this.log('info', `Log level set to ${level} (sent with each request)`);
      return;
    }
    try {
      // Deprecated from protocol 2026-07-28 (per-request log level) but still the way for every
      // legacy-era server, which is what servers speak today; the SDK keeps it working.
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- see above
      await client.setLoggingLevel(level);
    } catch (error) {
      throw this.requestFailure(error, 'logging/setLevel');
    }
    this.log('info', `Log level set to ${level}`);
  }

  private log(level: LogLevel, text: string): void {
    this.options.onLog?.({ source: 'host', level, text });
  }

  private logConnected(): void {
    const info = this.client?.getServerVersion();
    const who = info ? `${info.name} ${info.version}` : 'server';
    const version = this.client?.getNegotiatedProtocolVersion() ?? 'unknown';
    this.log('info', `Connected to ${who}, protocol ${version}`);
  }

  private logExit(exit: ProcessExit): void {
    const how = exit.signal ? `killed by ${exit.signal}` : `exited with code ${String(exit.code)}`;
    this.log(exit.signal !== null || exit.code !== 0 ? 'warning' : 'info', `Process ${how}`);
  }

  /** The tools as the snapshot shows them: `disabled` comes from the config only, never from the server. */
  private toolsWithDisabledFlags(tools: readonly ToolInfo[]): ToolInfo[] {
    const disabled = new Set(this.config.disabledTools ?? []);
    return tools.map((tool) => {
      const { disabled: _ignored, ...rest } = tool;
      return disabled.has(tool.name) ? { ...rest, disabled: true } : rest;
    });
  }

  /** A tool the model may call now (connected, listed, not disabled), found in constant time. */
  offeredTool(name: string): ToolInfo | undefined {
    if (this.status !== 'connected' || this.config.disabledTools?.includes(name) === true) return undefined;
    return this.serverCatalog?.tool(name);
  }
}
