import type { ServerConfig } from '../../../shared/model/config.js';
import type { ConfigState } from '../../../shared/model/app.js';
import type { ServerSnapshot, ToolCallProgress, ToolCallResult } from '../../../shared/model/server.js';
import { LatestThrottle } from '../latest-throttle.js';
import { HostError } from '../errors.js';
import type { HostEventSink } from '../ipc/handlers.js';
import type { ConfigStore } from './config/config-store.js';
import { CancellableCalls } from './lifecycle/request-policy.js';
import { ServerConnection } from './server-connection.js';
import type { CallOptions, ConnectionOptions } from './server-connection.js';
import type { ServerLogs } from './lifecycle/server-log.js';
import type { SavedEntry } from '../secrets/server-secrets.js';

export interface ServerManagerOptions extends Omit<ConnectionOptions, 'onChange' | 'onLog'> {
  emit: HostEventSink;
  /** Where each server's log goes (stderr, notifications/message, lifecycle). */
  logs?: ServerLogs;
  /**
   * The stored `${secret:NAME}` tables (secrets/server-secrets.ts), told of
   * every change to the set of entries so that a table never outlives the
   * entry it belongs to (secrets/secret-binding.ts).
   */
  /** A server finished connecting (tasks it was running are followed again). */
  onConnected?: ((name: string) => void) | undefined;
  secretTables?: {
    reconcile(entries: Readonly<Record<string, ServerConfig>>, saved?: SavedEntry): Promise<void>;
  };
}

/**
 * All configured servers: one isolated connection each, created from the
 * stored configuration only (never from strings the renderer sends at run
 * time), all started in parallel so a slow or failing one never holds up the
 * others.
 */
export class ServerManager {
  private connections = new Map<string, ServerConnection>();
  private readonly calls = new CancellableCalls();

  constructor(
    private readonly store: ConfigStore,
    private readonly options: ServerManagerOptions,
  ) {}

  configState(): ConfigState {
    const state = this.store.state;
    return { path: this.store.path, ...(state.ok ? {} : { error: state.error }) };
  }

  /** (Re)reads the configuration, replacing every connection. Does not start them. */
  async load(): Promise<ConfigState> {
    await this.stopAll();
    for (const name of this.connections.keys()) this.options.emit('serverRemoved', { name });
    this.connections.clear();
    await this.store.load();
    await this.reconcileSecrets();
    for (const [name, config] of Object.entries(this.store.servers())) {
      this.connections.set(name, this.createConnection(name, config));
    }
    const state = this.configState();
    this.options.emit('configChanged', state);
    for (const connection of this.connections.values())
      this.options.emit('serverChanged', connection.snapshot());
    return state;
  }

  /** Starts every enabled server in parallel and waits until each is connected or failed. */
  async startAll(): Promise<void> {
    await Promise.all(
      [...this.connections.values()].filter((c) => c.currentStatus !== 'disabled').map((c) => c.start()),
    );
  }

  list(): ServerSnapshot[] {
    return [...this.connections.values()].map((c) => c.snapshot());
  }

  get(name: string): ServerConnection {
    const connection = this.connections.get(name);
    if (!connection) throw new HostError('not_found', `No server named "${name}"`);
    return connection;
  }

  async remove(name: string): Promise<void> {
    const connection = this.get(name);
    await this.store.update((servers) => {
      // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- the table is keyed by server name
      delete servers[name];
    });
    await this.reconcileSecrets();
    this.connections.delete(name);
    await connection.stop();
    this.options.logs?.delete(name);
    this.options.eraVerdicts?.delete(name);
    // A removed server's tokens are revoked nowhere but forgotten here: a new entry signs in afresh.
    await this.options.oauth?.store.delete(name).catch(() => undefined);
    this.options.emit('serverRemoved', { name });
  }

  /** Tells the renderer about a snapshot that changed without a status change (e.g. a tool toggled). */
  announce(snapshot: ServerSnapshot): void {
    if (this.connections.has(snapshot.name)) this.options.emit('serverChanged', snapshot);
  }

  has(name: string): boolean {
    return this.connections.has(name);
  }

  /**
   * Puts a connection for `name` with `config` in place of `previous` (same
   * position in the list), ending the previous one first. Does not start it.
   * The entry is already in the file; its stored secrets are bound to it
   * (an install's) or follow it from `previous` (an edit) before it starts.
   */
  async install(name: string, config: ServerConfig, previous?: string): Promise<ServerConnection> {
    const old = previous !== undefined ? this.connections.get(previous) : undefined;
    if (old) await old.stop();
    await this.reconcileSecrets({ name, previous });
    const connection = this.createConnection(name, config);
    const next = new Map<string, ServerConnection>();
    if (previous !== undefined && old) {
      for (const [key, value] of this.connections)
        next.set(key === previous ? name : key, key === previous ? connection : value);
    } else {
      for (const [key, value] of this.connections) next.set(key, value);
      next.set(name, connection);
    }
    this.connections = next;
    if (previous !== undefined && previous !== name && old) {
      this.options.logs?.delete(previous);
      this.options.emit('serverRemoved', { name: previous });
    }
    this.options.emit('serverChanged', connection.snapshot());
    return connection;
  }

  /**
   * Calls a tool. With a `callId` the call can be cancelled (cancelToolCall)
   * and its progress notifications are pushed as `toolCallProgress` events.
   */
  async callTool(
    server: string,
    tool: string,
    argumentsJson: string,
    options: {
      callId?: string | undefined;
      signal?: AbortSignal | undefined;
      origin?: CallOptions['origin'];
    } = {},
  ): Promise<ToolCallResult> {
    const connection = this.get(server);
    const { callId, origin } = options;
    if (callId === undefined)
      return connection.callTool(tool, argumentsJson, { signal: options.signal, origin });
    const controller = this.calls.begin(callId);
    const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
    // Progress reaches the renderer at most ten times a second, the latest each time.
    const progress = new LatestThrottle<ToolCallProgress>((event) => {
      this.options.emit('toolCallProgress', event);
    });
    try {
      return await connection.callTool(tool, argumentsJson, {
        signal,
        origin,
        onProgress: (update) => {
          progress.push({
            callId,
            server,
            tool,
            progress: update.progress,
            ...(update.total !== undefined ? { total: update.total } : {}),
            ...(update.message !== undefined ? { message: update.message.slice(0, 1000) } : {}),
          });
        },
      });
    } finally {
      progress.cancel();
      this.calls.end(callId);
    }
  }

  /** Cancels a running call; false when it had already finished (not an error: the race is normal). */
  cancelToolCall(callId: string): boolean {
    return this.calls.cancel(callId);
  }

  /** The roots (file:// URIs) configured for a server. */
  rootsOf(name: string): string[] {
    this.get(name);
    return [...(this.store.servers()[name]?.roots ?? [])];
  }

  /** Replaces a server's roots in the config file, then tells the server (roots/list_changed). */
  async setRoots(name: string, roots: readonly string[]): Promise<string[]> {
    const connection = this.get(name);
    await this.store.update((servers) => {
      const entry = servers[name];
      if (!entry) throw new HostError('not_found', `No server named "${name}"`);
      const next: ServerConfig = { ...entry };
      if (roots.length > 0) next.roots = [...roots];
      else delete next.roots;
      servers[name] = next;
    });
    await connection.setRoots(roots);
    return [...roots];
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.connections.values()].map((c) => c.stop()));
  }

  /**
   * Lets the secret tables follow the configuration just read or written.
   * Skipped while the file is invalid (its entries are unknown then). A
   * failed write is not the caller's failure: the tables in memory have
   * changed already, so no value reaches an entry it does not belong to.
   */
  private async reconcileSecrets(saved?: SavedEntry): Promise<void> {
    if (!this.store.state.ok || !this.options.secretTables) return;
    await this.options.secretTables.reconcile(this.store.servers(), saved).catch(() => undefined);
  }

  private createConnection(name: string, config: ServerConfig): ServerConnection {
    const logs = this.options.logs;
    const connection: ServerConnection = new ServerConnection(name, config, {
      ...this.options,
      onChange: (snapshot) => {
        // A new connection forgets the log level set on the previous one.
        if (snapshot.status === 'connecting' && logs) logs.of(name).level = undefined;
        // A removed (or replaced) server's last words are not news.
        if (this.connections.get(name) !== connection) return;
        this.options.emit('serverChanged', snapshot);
        if (snapshot.status === 'connected') this.options.onConnected?.(name);
      },
      ...(logs
        ? {
            onLog: (entry) => {
              logs.append(name, entry);
            },
          }
        : {}),
    });
    return connection;
  }
}
