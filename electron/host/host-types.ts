import type { ConfigState } from '../../shared/model/app.js';
import type { AnyHostEventListener, HostHandlers } from './ipc/handlers.js';
import type { ConsentBroker } from './consent/consent-broker.js';
import type { Platform } from './platform.js';
import type { HostEnvironment } from './servers/stdio/login-env.js';
import type { ConnectionTuning } from './servers/server-connection.js';
import type { SamplingModel } from './client-features/sampling/sampling-model.js';
import type { SandboxLocation } from './apps/app-views.js';
import type { SandboxResponse } from './apps/sandbox-responder.js';
import type { BundleInstaller } from './install/bundle/bundle-installer.js';
import type { PendingInstall } from '../../shared/model/registry.js';
import type { RegistryClient } from './install/registry/registry-client.js';

export interface HostOptions {
  platform: Platform;
  /** Which shell runs the core; reported to the UI. */
  shell: 'electron' | 'headless';
  appVersion: string;
  /** Configuration file to use instead of <userData>/mcp-servers.json. */
  configPath?: string | undefined;
  /** Lifecycle timings (restart backoff, health checks); tests and benchmarks shorten them. */
  tuning?: ConnectionTuning | undefined;
  /** The environment servers start from; default: the login shell's, resolved once (tests inject one). */
  environment?: (() => Promise<HostEnvironment>) | undefined;
  /** better_sqlite3.node built for Electron's ABI (the Electron shell passes it; Node uses the installed one). */
  sqliteNativeBinding?: string | undefined;
  /** Retries of the Anthropic SDK for 429/529/5xx/network failures (default 2). */
  chatMaxRetries?: number | undefined;
  /**
   * Whether a person can answer consent requests (a UI is attached). Default
   * true. The one-shot CLI commands have nobody to ask, so there the host
   * declares neither sampling nor elicitation and servers don't wait on it.
   */
  interactive?: boolean | undefined;
  /** Answers sampling requests; default: Claude through the Anthropic SDK. */
  samplingModel?: SamplingModel | undefined;
  /** Sampling requests each server may make per minute. Default 10. */
  samplingPerMinute?: number | undefined;
  /** The MCP registry's client (tests shorten its time limit). */
  registry?: RegistryClient | undefined;
}

/** The host core as the shells see it. */
export interface Host {
  readonly handlers: HostHandlers;
  /** Where decisions that need the person wait (tool calls, sampling, elicitation). */
  readonly consent: ConsentBroker;
  /** Installs servers from .mcpb bundles (the CLI opens files by path through it; the UI through the contract). */
  readonly bundles: BundleInstaller;
  /** MCP Apps' sandbox origin: the shell serves it and tells the core where it is. */
  readonly apps: {
    bindSandbox(location: SandboxLocation): void;
    /** The answer to one request made to the sandbox origin (proxy page, its script, CSP reports). */
    respond(request: { method: string; path: string; body?: string | undefined }): SandboxResponse;
  };
  /**
   * Install links reach the host here (the OS opening `mcp-host://install?…`,
   * `mcp-host install --link` handing one to a running shell): checked and
   * held as a pending install that every open page shows for confirmation.
   * Never installs; rejects with one HostError line when the link is bad.
   */
  readonly installs: { receiveLink(link: string): Promise<PendingInstall> };
  /** Subscribe to every host event (the adapters forward them to the renderer). */
  onEvent(listener: AnyHostEventListener): () => void;
  /** Reads the configuration and creates a connection per server without starting any. */
  loadConfig(): Promise<ConfigState>;
  /** Loads the configuration and starts every enabled server in parallel; does not wait for them. */
  start(): Promise<void>;
  /** Ends every server process (stdin close, SIGTERM, SIGKILL) and releases resources. */
  dispose(): Promise<void>;
}
