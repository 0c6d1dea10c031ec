import type { ServerConfig, StdioServerInput } from '../../../shared/model/config.js';
import type { ConfigState } from '../../../shared/model/app.js';
import type { ServerSnapshot, ToolCallResult } from '../../../shared/model/server.js';
import { HostError } from '../errors.js';
import type { HostEventSink } from '../ipc/handlers.js';
import type { LaunchRequest } from '../platform.js';
import type { ConfigStore } from './config-store.js';
import { ServerConnection } from './server-connection.js';
import type { ConnectionOptions } from './server-connection.js';

export interface ServerManagerOptions extends Omit<ConnectionOptions, 'onChange'> {
  emit: HostEventSink;
  /** Asked before a server added through the UI is first started. */
  confirmLaunch: (request: LaunchRequest) => Promise<boolean>;
}

/**
 * All configured servers: one isolated connection each, created from the
 * stored configuration only (never from strings the renderer sends at run
 * time), all started in parallel so a slow or failing one never holds up the
 * others.
 */
export class ServerManager {
  private connections = new Map<string, ServerConnection>();

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

  async add(input: StdioServerInput): Promise<ServerSnapshot> {
    if (this.connections.has(input.name)) {
      throw new HostError('conflict', `A server named "${input.name}" already exists`);
    }
    const config: ServerConfig = {
      command: input.command,
      args: input.args,
      ...(Object.keys(input.env).length > 0 ? { env: input.env } : {}),
      ...(input.cwd !== undefined && input.cwd.trim() !== '' ? { cwd: input.cwd.trim() } : {}),
    };
    const allowed = await this.options.confirmLaunch({
      name: input.name,
      command: input.command,
      args: input.args,
      cwd: config.cwd,
      envNames: Object.keys(input.env),
    });
    if (!allowed) throw new HostError('denied', `Starting "${input.name}" was not allowed`);
    await this.store.update((servers) => {
      servers[input.name] = config;
    });
    const connection = this.createConnection(input.name, config);
    this.connections.set(input.name, connection);
    return connection.start();
  }

  async remove(name: string): Promise<void> {
    const connection = this.get(name);
    await this.store.update((servers) => {
      // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- the table is keyed by server name
      delete servers[name];
    });
    this.connections.delete(name);
    await connection.stop();
    this.options.emit('serverRemoved', { name });
  }

  start(name: string): Promise<ServerSnapshot> {
    return this.get(name).start();
  }

  stop(name: string): Promise<ServerSnapshot> {
    return this.get(name).stop();
  }

  callTool(
    server: string,
    tool: string,
    argumentsJson: string,
    signal?: AbortSignal,
  ): Promise<ToolCallResult> {
    return this.get(server).callTool(tool, argumentsJson, signal);
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

  private createConnection(name: string, config: ServerConfig): ServerConnection {
    return new ServerConnection(name, config, {
      ...this.options,
      onChange: (snapshot) => {
        // A removed server's last words are not news.
        if (this.connections.get(name)) this.options.emit('serverChanged', snapshot);
      },
    });
  }
}
