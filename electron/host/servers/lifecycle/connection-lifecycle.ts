import { InMemoryResponseCacheStore } from '@modelcontextprotocol/client';
import type { Client } from '@modelcontextprotocol/client';
import { transportOf } from '../../../../shared/model/config.js';
import type { ServerConfig, TransportEntry } from '../../../../shared/model/config.js';
import type { ServerSnapshot } from '../../../../shared/model/server.js';
import type { LogLevel } from '../../../../shared/model/logs.js';
import { describeError } from '../../errors.js';
import type { HostError } from '../../errors.js';
import { DEFAULT_CONNECT_TIMEOUT_MS } from '../connection-options.js';
import type { ConnectionOptions } from '../connection-options.js';
import { connectedLine, describeTarget } from '../connection-facts.js';
import type { ServerCatalog } from '../server-catalog.js';
import { createTransport } from '../transport/create-transport.js';
import type { ConnectAttempt, ServerTransport, SessionEnding } from '../transport/server-transport.js';
import type { ConnectionState } from './connection-state.js';
import { HealthMonitor, pingOf } from './health-monitor.js';
import { newAttempt } from './attempt-client.js';
import { RestartPolicy } from './restart-policy.js';
import { ServerOutput, strayCountText } from './server-output.js';

/** Snapshots pushed for stray stdout lines are at most this often, so a spewing server cannot flood the UI. */
const STRAY_EMIT_INTERVAL_MS = 500;

/**
 * The lifecycle of one server's connection: start, handshake (through its
 * transport), crash, restart with backoff, health checks, stop. Every start,
 * stop and crash bumps a generation, so late events of an old attempt are
 * ignored. What the connection offers beyond that (requests, sign-in, the
 * snapshot) is ServerConnection's.
 */
export abstract class ConnectionLifecycle {
  protected state: ConnectionState = { status: 'stopped' };
  protected entry: TransportEntry;
  protected transport: ServerTransport;
  protected readonly output: ServerOutput;
  protected readonly restarts: RestartPolicy;
  /** Cacheable results (lists with their ttlMs) across this server's connections; emptied when its config changes. */
  protected readonly responseCache = new InMemoryResponseCacheStore();
  /** The log level asked of a 2026-07-28 server in each request's _meta; kept across reconnects. */
  protected requestLogLevel: LogLevel | undefined;
  /** Requests in flight, so health checks only ping a quiet server. */
  protected inFlight = 0;
  private generation = 0;
  /** The catalog of the latest attempt (the connected one's, once connected). */
  private attemptCatalog: ServerCatalog | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
  private health: HealthMonitor | undefined;
  private strayEmitTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly name: string,
    config: ServerConfig,
    protected readonly options: ConnectionOptions,
  ) {
    if (config.disabled === true) this.state = { status: 'disabled' };
    this.entry = transportOf(config);
    this.transport = this.newTransport(this.entry);
    this.restarts = new RestartPolicy(options.restart);
    this.output = new ServerOutput((entry) => {
      this.options.onLog?.(entry);
      if (entry.source === 'stdout') this.strayLineSeen();
    });
  }

  abstract snapshot(): ServerSnapshot;

  /** Words an SDK failure as one clear line naming the server and what happened. */
  protected abstract describeFailure(error: unknown, what: string, ending?: SessionEnding): HostError;

  protected get config(): ServerConfig {
    return this.entry.config;
  }

  /** The entry, parsed once for its transport; the transport is replaced only if its kind changed. */
  protected set config(config: ServerConfig) {
    this.entry = transportOf(config);
    if (!this.transport.reconfigure(this.entry)) this.transport = this.newTransport(this.entry);
  }

  /** Is a start, sign-in or event from generation `generation` still the current one? */
  protected isCurrent(generation: number): boolean {
    return generation === this.generation;
  }

  protected get currentGeneration(): number {
    return this.generation;
  }

  /**
   * Connects; resolves when connected or failed (never rejects). A person
   * starting the server (rather than an automatic restart) clears its crash
   * count and any scheduled restart.
   */
  async start(): Promise<ServerSnapshot> {
    if (this.state.status === 'connecting' || this.state.status === 'connected') return this.snapshot();
    this.cancelRestart();
    this.restarts.reset();
    return this.connect(false);
  }

  /** Stops (if running) and starts again, as a person asked; clears the crash count. */
  async restart(): Promise<ServerSnapshot> {
    await this.stop();
    return this.start();
  }

  /** Ends the server (for a process: stdin close, SIGTERM, SIGKILL) and waits for it. */
  async stop(): Promise<ServerSnapshot> {
    const wasRunning = this.state.status === 'connecting' || this.state.status === 'connected';
    this.generation++;
    this.cancelRestart();
    await this.teardown(false);
    const disabled = this.config.disabled === true;
    this.setState({ status: disabled ? 'disabled' : 'stopped' });
    if (wasRunning) this.log('info', disabled ? 'Stopped (disabled)' : 'Stopped');
    return this.snapshot();
  }

  protected async connect(automatic: boolean): Promise<ServerSnapshot> {
    if (this.state.status === 'connected') await this.teardown(false);
    const generation = ++this.generation;
    // An automatic restart keeps the crash's reason and the process's last words visible.
    const kept = automatic && this.state.status === 'restarting' ? this.state.error : undefined;
    if (!automatic) this.output.reset();
    this.setState({ status: 'connecting', since: Date.now(), error: kept });
    this.log('info', `Starting: ${describeTarget(this.config)}`);
    try {
      const session = await this.transport.connect(this.attempt(generation));
      const catalog = this.attemptCatalog;
      if (!this.isCurrent(generation) || !catalog) {
        await session.close(false);
        return this.snapshot();
      }
      session.onEnded = (reason) => {
        if (this.isCurrent(generation) && this.state.status === 'connected') this.crashed(reason);
      };
      this.transport.signIn?.current()?.clearRequired();
      this.setState({ status: 'connected', since: Date.now(), session, catalog });
      this.log('info', connectedLine(session.client));
      this.watchHealth(generation, session.client);
    } catch (error) {
      if (!this.isCurrent(generation)) return this.snapshot();
      const signIn = this.transport.signInFailure(error);
      if (signIn) {
        this.signInRequired(signIn);
        return this.snapshot();
      }
      await this.teardown(true);
      if (!this.isCurrent(generation)) return this.snapshot();
      if (automatic) {
        this.crashed(describeError(error));
      } else {
        this.setState({ status: 'failed', error: describeError(error) });
        this.log('error', `Failed: ${describeError(error)}`);
      }
    }
    return this.snapshot();
  }

  /** A connect or request failed for want of a sign-in: disconnect and show "Sign-in required". */
  protected signInRequired(failure: HostError): void {
    this.generation++;
    void this.teardown(true);
    this.transport.signIn?.current()?.markRequired(failure);
    this.setState({ status: 'sign-in-required' });
    this.log('warning', failure.message);
  }

  /**
   * The server went away while in use (exit, crash, unanswered ping) or a
   * restart attempt failed: restart with backoff, or give up after too many
   * crashes in the window. Pending requests have already failed with the reason.
   */
  private crashed(reason: string): void {
    const generation = ++this.generation;
    // Whatever is left of the old process goes; its pending requests fail with the reason.
    void this.teardown(true);
    if (this.config.autoRestart === false) {
      this.setState({ status: 'failed', error: reason });
      return;
    }
    const decision = this.restarts.recordCrash();
    if (decision.action === 'give-up') {
      const minutes = Math.round(decision.windowMs / 60_000);
      const error = `${reason}. Crashed ${String(decision.crashCount)} times within ${String(minutes)} min, so it was not restarted again; restart it when fixed`;
      this.setState({ status: 'failed', error });
      this.log('error', error);
      return;
    }
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      // Never rejects: a failed attempt counts as another crash.
      if (this.isCurrent(generation)) void this.connect(true);
    }, decision.delayMs);
    this.setState({ status: 'restarting', error: reason, at: Date.now() + decision.delayMs });
    this.log('warning', `${reason}. Restarting in ${String(Math.ceil(decision.delayMs / 1000))} s`);
  }

  /** Ends whatever runs: the connected session, or what an attempt in progress started. */
  private async teardown(failed: boolean): Promise<void> {
    const state = this.state;
    this.health?.stop();
    this.attemptCatalog?.dispose();
    if (state.status === 'connected') await state.session.close(failed);
    else await this.transport.abandon();
  }

  private cancelRestart(): void {
    clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
  }

  /** What the transport is given for one connect attempt of `generation`. */
  private attempt(generation: number): ConnectAttempt {
    return newAttempt({
      server: this.name,
      options: this.options,
      output: this.output,
      connectTimeoutMs: this.connectTimeoutMs,
      config: () => this.config,
      isCurrent: () => this.isCurrent(generation),
      changed: (what) => {
        if (what === 'transport' || this.state.status === 'connected') this.emit();
      },
      log: (level, text) => {
        this.log(level, text);
      },
      describeFailure: (error, what, ending) => this.describeFailure(error, what, ending),
      adoptCatalog: (catalog) => {
        this.attemptCatalog?.dispose();
        this.attemptCatalog = catalog;
      },
      responseCache: this.responseCache,
      requestLogLevel: () => this.requestLogLevel,
    });
  }

  private watchHealth(generation: number, client: Client): void {
    this.health?.stop();
    this.health = new HealthMonitor(
      this.options.pingIntervalMs ?? 30_000,
      this.options.pingTimeoutMs ?? 10_000,
      () => this.inFlight > 0,
      (timeout) => pingOf(client, timeout),
      (reason) => {
        if (!this.isCurrent(generation) || this.state.status !== 'connected') return;
        this.output.note(reason, 'error');
        this.crashed(`Server "${this.name}" ${reason}`);
      },
    );
    this.health.start();
  }

  /** The time this server may take to complete the MCP handshake. */
  protected get connectTimeoutMs(): number {
    return this.config.connectTimeout ?? this.options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  }

  /** A stray stdout line was counted: the UI hears of it, at most twice a second. */
  private strayLineSeen(): void {
    if (this.strayEmitTimer) return;
    const first = this.output.strayStdout?.count === 1;
    if (first && this.state.status === 'connected') {
      this.log('warning', `The server ${strayCountText(1)}; such lines are skipped`);
    }
    this.strayEmitTimer = setTimeout(() => {
      this.strayEmitTimer = undefined;
      if (this.state.status === 'connected' || this.state.status === 'connecting') this.emit();
    }, STRAY_EMIT_INTERVAL_MS);
    this.strayEmitTimer.unref();
  }

  private newTransport(entry: TransportEntry): ServerTransport {
    const create = this.options.transportFactory ?? createTransport;
    return create(this.name, entry, this.options, {
      changed: () => {
        this.emit();
      },
      log: (level, text) => {
        this.log(level, text);
      },
    });
  }

  protected setState(state: ConnectionState): void {
    this.state = state;
    this.emit();
  }

  protected emit(): void {
    this.options.onChange(this.snapshot());
  }

  protected log(level: LogLevel, text: string): void {
    this.options.onLog?.({ source: 'host', level, text });
  }
}
