import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { Client } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../../../shared/model/config.js';
import type { ServerSnapshot, ServerStatus, ToolCallResult, ToolInfo } from '../../../shared/model/server.js';
import type { ServerIdentity } from '../../../shared/model/consent-rules.js';
import type { LogLevel } from '../../../shared/model/logs.js';
import { serverIdentity } from '../consent/server-identity.js';
import { HostError, describeError } from '../errors.js';
import { describeSignOut, signOutLevel } from './http/auth/revocation.js';
import { requireCapability } from './capabilities.js';
import { requestFailure } from './connection-failure.js';
import { buildSnapshot } from './connection-snapshot.js';
import type { ServerCatalog } from './server-catalog.js';
import { ConnectionLifecycle } from './lifecycle/connection-lifecycle.js';
import { GuardedRequest, requestPolicyOf } from './lifecycle/request-policy.js';
import type { ProgressUpdate } from './lifecycle/request-policy.js';
import { parseToolArguments } from './tool-arguments.js';
import { toToolCallResult } from './tool-result.js';
import type { SessionEnding, TransportSession } from './transport/server-transport.js';
import { withBlockedAttempts } from './sandbox-attribution.js';
import { callToolTimed, runsAsTask } from './tasks/task-call.js';
import type { TaskInfo } from '../../../shared/model/tasks.js';

export type { ConnectionOptions, ConnectionTuning } from './connection-options.js';
export { DEFAULT_CONNECT_TIMEOUT_MS } from './connection-options.js';

export interface CallOptions {
  /** Aborting cancels the call (the server gets notifications/cancelled). */
  signal?: AbortSignal | undefined;
  onProgress?: ((update: ProgressUpdate) => void) | undefined;
  /** The conversation and tool call a task made for this call belongs to. */
  origin?: { conversationId?: string | undefined; toolCallId?: string | undefined } | undefined;
  /** The call became a task (it runs on; the returned promise settles with its end). */
  onTask?: ((task: TaskInfo) => void) | undefined;
}

/**
 * One MCP client for one server, and the only object that talks to that
 * server, so servers never see each other. Its lifecycle (start, handshake,
 * crash, restart, stop) is ConnectionLifecycle's; this class adds what the
 * rest of the host asks of a server: requests under the server's policy,
 * OAuth sign-in, and the snapshot the UI shows.
 */
export class ServerConnection extends ConnectionLifecycle {
  /** The identity of `config`, computed once per configuration object. */
  private identityOf: { config: ServerConfig; identity: ServerIdentity } | undefined;
  /** The sign-in in progress: settles (never rejects) once its outcome is applied, before any reconnect. */
  private signInFlow: Promise<void> | undefined;

  snapshot(): ServerSnapshot {
    return buildSnapshot({
      name: this.name,
      entry: this.entry,
      state: this.state,
      transport: this.transport,
      output: this.output,
      connectTimeoutMs: this.connectTimeoutMs,
      crashCount: this.restarts.crashCount,
      identity: this.identity,
    });
  }

  /** What this name stands for now (program or URL): consent rules are bound to it. */
  get identity(): ServerIdentity {
    if (this.identityOf?.config !== this.config) {
      this.identityOf = { config: this.config, identity: serverIdentity(this.config) };
    }
    return this.identityOf.identity;
  }

  get currentStatus(): ServerStatus {
    return this.state.status;
  }

  /** What the connected server offers (tools, resources, templates, prompts); undefined unless connected. */
  get catalog(): ServerCatalog | undefined {
    return this.state.status === 'connected' ? this.state.catalog : undefined;
  }

  /** The connected server's SDK client, for requests beyond the catalog (read, get, subscribe). */
  get connectedClient(): Client | undefined {
    return this.state.status === 'connected' ? this.state.session.client : undefined;
  }

  /** The entry does not turn its skills off (`skills: false`): verified skills may be offered to Claude. */
  get skillsEnabled(): boolean {
    return this.config.skills !== false;
  }

  /** Throws a clear HostError unless connected and the server declared `feature`. */
  requireCapability(feature: Parameters<typeof requireCapability>[2]): Client {
    const client = this.connectedClient;
    if (!client) {
      const why = this.state.status === 'restarting' ? ' (it is restarting after a crash)' : '';
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
   * OAuth sign-in, as the person asked: opens the authorization page in the
   * browser and resolves once it is open (or the attempt already ended);
   * the rest arrives as snapshots: connected, or "sign-in-required" with
   * the reason.
   */
  async signIn(): Promise<ServerSnapshot> {
    const session = await this.signInControl().prepared();
    let opened: () => void = () => undefined;
    const browserOpened = new Promise<void>((resolve) => {
      opened = resolve;
    });
    const generation = this.currentGeneration;
    // Settles once the sign-in's outcome is applied (before any reconnect), never rejects.
    const signedIn = session.signIn(opened).then(
      () => {
        this.log('info', 'Signed in');
        return true;
      },
      (error: unknown) => {
        this.log('warning', describeError(error));
        if (this.state.status !== 'connected') this.setState({ status: 'sign-in-required' });
        else this.emit();
        return false;
      },
    );
    this.signInFlow = signedIn.then(() => undefined);
    const flow = signedIn.then(async (ok) => {
      if (ok && (this.isCurrent(generation) || this.state.status === 'sign-in-required'))
        await this.connect(false);
    });
    await Promise.race([browserOpened, flow]);
    return this.snapshot();
  }

  /** Stops waiting for the browser; the server stays "sign-in-required". */
  async cancelSignIn(): Promise<ServerSnapshot> {
    this.transport.signIn?.current()?.cancel();
    // Answer once the sign-in has ended, so the reply is not older than the events it caused.
    await this.signInFlow;
    return this.snapshot();
  }

  /** Revokes and forgets the tokens; the server is disconnected and shows "Sign-in required". */
  async signOut(): Promise<ServerSnapshot> {
    const session = this.transport.signIn?.current();
    if (!session) return this.snapshot();
    await this.stop();
    // Lists cached for the signed-out account are not another account's.
    this.responseCache.clear();
    const outcome = await session.signOut();
    this.log(signOutLevel(outcome), describeSignOut(outcome));
    this.setState({ status: 'sign-in-required' });
    return this.snapshot();
  }

  private signInControl() {
    const control = this.transport.signIn;
    if (!control) {
      throw new HostError('invalid_params', `Server "${this.name}" is not a remote server that signs in`);
    }
    return control;
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
    const client = this.requireCapability('tools');
    const session = this.state.status === 'connected' ? this.state.session : undefined;
    const tool = this.catalog?.tool(toolName);
    if (!tool) throw new HostError('not_found', `Server "${this.name}" has no tool named "${toolName}"`);
    const args = parseToolArguments(argumentsJson, tool.inputSchema);
    // A failure of a sandboxed server carries what the sandbox blocked meanwhile (the card says so).
    return withBlockedAttempts(
      this.transport,
      () => this.sendToolCall(client, session, tool, args, options),
      options.signal,
    );
  }

  private async sendToolCall(
    client: Client,
    session: TransportSession | undefined,
    tool: ToolInfo,
    args: Record<string, unknown>,
    options: CallOptions,
  ): Promise<ToolCallResult> {
    const toolName = tool.name;
    const what = `tools/call ${toolName}`;
    const tasks = this.options.tasks;
    if (tasks && runsAsTask(client, tool)) {
      const { signal, origin, onTask } = options;
      this.inFlight++;
      try {
        const task = { server: this.name, tool: toolName, args, signal, onTask, ...origin };
        const policy = requestPolicyOf(this.config);
        return await callToolTimed(client, tasks, { ...task, limits: this.options.taskLimits, policy });
      } catch (error) {
        throw error instanceof HostError ? error : this.describeFailure(error, what, session?.ending());
      } finally {
        this.inFlight--;
      }
    }
    const guard = new GuardedRequest(requestPolicyOf(this.config), options.onProgress, options.signal);
    const started = performance.now();
    this.inFlight++;
    try {
      const result = await client.callTool({ name: toolName, arguments: args }, guard.options);
      return toToolCallResult(result, Math.round(performance.now() - started));
    } catch (error) {
      const timedOut = error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout;
      // The SDK's overall limit carries the limit it enforced; the silence limit does not.
      const maxTotal = timedOut && isRecord(error.data) && 'maxTotalTimeout' in error.data;
      throw (
        guard.failure(this.name, what, timedOut, maxTotal) ??
        this.describeFailure(error, what, session?.ending())
      );
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
    const session = this.state.status === 'connected' ? this.state.session : undefined;
    if (!session) throw new HostError('not_connected', `Server "${this.name}" is not connected`);
    try {
      return await run(session.client);
    } catch (error) {
      throw this.describeFailure(error, what, session.ending());
    }
  }

  /** The roots this server may see changed: keep them and tell a connected server. */
  async setRoots(roots: readonly string[]): Promise<void> {
    this.config = { ...this.config, roots: [...roots] };
    // A sandboxed server may write only the folders mounted at its start: it starts again with the new ones.
    const { status } = this.state;
    const running = status === 'connected' || status === 'connecting';
    if (running && this.transport.facts(status).sandbox?.state === 'on') {
      this.output.note('Roots changed: restarting the server so its sandbox lets it use them', 'info');
      await this.restart();
      return;
    }
    // The server asks roots/list again when it wants them; a failed notice is not the user's problem.
    // Deprecated from 2026-07-28 on, but the legacy-era servers that ask for roots need it.
    // eslint-disable-next-line @typescript-eslint/no-deprecated
    await this.connectedClient?.sendRootsListChanged().catch((error: unknown) => {
      this.output.note(`could not send roots/list_changed: ${describeError(error)}`);
    });
  }

  /** logging/setLevel on the live connection; the server must have declared `logging`. */
  async setLogLevel(level: LogLevel): Promise<void> {
    const client = this.connectedClient;
    if (!client) throw new HostError('not_connected', `Server "${this.name}" is not connected`);
    if (client.getServerCapabilities()?.logging === undefined) {
      throw new HostError('invalid_params', `Server "${this.name}" does not support setting a log level`);
    }
    if (client.getProtocolEra() === 'modern') {
      // 2026-07-28 has no logging/setLevel: the level travels in the _meta of every request.
      this.requestLogLevel = level;
      this.log('info', `Log level set to ${level} (sent with each request)`);
      return;
    }
    // Deprecated from protocol 2026-07-28 (per-request log level) but still the way for every
    // legacy-era server, which is what servers speak today; the SDK keeps it working.
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- see above
    await this.request('logging/setLevel', (connected) => connected.setLoggingLevel(level));
    this.log('info', `Log level set to ${level}`);
  }

  /** A tool the model may call now (connected, listed, not disabled), found in constant time. */
  offeredTool(name: string): ToolInfo | undefined {
    if (this.config.disabledTools?.includes(name) === true) return undefined;
    return this.catalog?.tool(name);
  }

  /** Maps an SDK failure to one clear line, naming the server and what happened. */
  protected describeFailure(error: unknown, what: string, ending?: SessionEnding): HostError {
    if (error instanceof SdkError && error.code === SdkErrorCode.ClientHttpForbidden) {
      // Re-authorized once for this request and still refused: the sign-in cannot grant more.
      return new HostError(
        'denied',
        `Server "${this.name}" refused ${what}: it still asks for more permissions after the sign-in was renewed`,
      );
    }
    const signIn = this.transport.signInFailure(error);
    if (signIn) {
      // The token was refused and could not be renewed: the server now waits for a sign-in.
      if (this.state.status === 'connected') this.signInRequired(signIn);
      return signIn;
    }
    return requestFailure(this.name, error, what, ending);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
