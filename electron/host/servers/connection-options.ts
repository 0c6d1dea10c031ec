import type { StreamableHTTPReconnectionOptions } from '@modelcontextprotocol/client';
import type { ServerConfig, StdioServerConfig } from '../../../shared/model/config.js';
import type { ServerSnapshot } from '../../../shared/model/server.js';
import type { ToolDefinition } from '../../../shared/model/tool-pins.js';
import type { ClientFeature } from '../client-features/client-feature.js';
import type { OAuthServices } from './http/auth/server-auth.js';
import type { EraVerdicts } from './stdio/era-verdicts.js';
import type { HostEnvironment } from './stdio/login-env.js';
import type { SandboxServices } from './stdio/sandbox/sandbox-launch.js';
import type { RestartPolicyOptions } from './lifecycle/restart-policy.js';
import type { NewLogEntry } from './lifecycle/server-log.js';
import type { TransportFactory } from './transport/server-transport.js';
import type { TaskRegistry } from './tasks/task-registry.js';
import type { TaskLimits } from './tasks/task-call.js';

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
  /** The ttl the host asks for when a tool call runs as a task, and the largest result it takes. */
  taskLimits?: TaskLimits | undefined;
}

/** What a server connection is given by the host: services, callbacks and tuning. */
export interface ConnectionOptions extends ConnectionTuning {
  appVersion: string;
  /** The host environment (login shell over process); awaited only when a stdio server is spawned. */
  environment: () => Promise<HostEnvironment>;
  onChange: (snapshot: ServerSnapshot) => void;
  /** Receives the server's log: stderr lines, notifications/message, lifecycle events. */
  onLog?: (entry: NewLogEntry) => void;
  /** A resource this server's client subscribed to changed (`notifications/resources/updated`). */
  onResourceUpdated?: (server: string, uri: string) => void;
  /** The server's tool list arrived (connect, list_changed, restart): compare it with the pinned definitions. */
  onToolDefinitions?: (server: string, definitions: readonly ToolDefinition[]) => void;
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
  /** The OS sandbox of local servers; absent: they run unconfined and say so. */
  sandbox?: SandboxServices;
  /** How an entry's transport is made; default: by its kind (transport/create-transport.ts). */
  transportFactory?: TransportFactory;
  /** Where tool calls made as tasks are recorded; absent: every call is a plain tools/call. */
  tasks?: TaskRegistry | undefined;
}

/**
 * Default time a server has to complete the MCP handshake: long enough for
 * the first `npx -y` run, which downloads the package before the server starts.
 */
export const DEFAULT_CONNECT_TIMEOUT_MS = 120_000;
