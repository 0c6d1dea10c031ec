import type { Client } from '@modelcontextprotocol/client';
import type { StdioServerConfig, TransportEntry } from '../../../../shared/model/config.js';
import type { ServerRuntime, ServerStatus } from '../../../../shared/model/server.js';
import type { ServerSandbox } from '../../../../shared/model/sandbox.js';
import type { HostError } from '../../errors.js';
import { describeExitStatus } from '../connection-failure.js';
import type { ConnectionOptions } from '../connection-options.js';
import { withSecrets } from '../config/entry-secrets.js';
import type { ServerOutput } from '../lifecycle/server-output.js';
import type {
  ConnectAttempt,
  ServerTransport,
  SessionEnding,
  TransportFacts,
  TransportSession,
} from '../transport/server-transport.js';
import { priorFor, recordEra, stdioIdentity } from './era-verdicts.js';
import { resolveLaunch } from './launch-spec.js';
import { priorityOf } from './process-priority.js';
import { launcherLines, launcherOf } from './launcher-output.js';
import { connectStdio, probePatienceMs } from './stdio-handshake.js';
import { BlockedAttempts, blockedNotice } from './sandbox/sandbox-violations.js';
import { sandboxStart } from './sandbox/sandbox-launch.js';
import type { ProcessExit, StdioProcessTransport } from './stdio-transport.js';
import type { ServerNetwork } from './sandbox/network/proxy-launch.js';

/**
 * A local server: its command resolved against the login environment, run in
 * its own process group, reached over its stdin and stdout, its era probed
 * or taken from the remembered verdict (stdio-handshake.ts), and its exit
 * noticed and worded with its last words.
 */
export class StdioServerTransport implements ServerTransport {
  readonly kind = 'stdio';
  readonly signIn = undefined;
  /** The process of the running or last attempt: the one to stop and the one whose pid is shown. */
  private process: StdioProcessTransport | undefined;
  private client: Client | undefined;
  private runtime: ServerRuntime | undefined;
  private sandbox: ServerSandbox | undefined;
  private blocked: BlockedAttempts | undefined;
  /** The network proxy of the running or last attempt (sandboxed only). */
  private network: ServerNetwork | undefined;

  constructor(
    private readonly name: string,
    private config: StdioServerConfig,
    private readonly options: ConnectionOptions,
  ) {}

  reconfigure(entry: TransportEntry): boolean {
    if (entry.kind !== 'stdio') return false;
    this.config = entry.config;
    return true;
  }

  facts(status: ServerStatus): TransportFacts {
    const launcher = launcherOf(this.config.command, this.config.args ?? []);
    const bundle = this.config.bundle;
    const pid = this.process?.pid;
    return {
      ...(launcher ? { launcher } : {}),
      ...(bundle ? { bundle: { id: bundle.id, version: bundle.version } } : {}),
      ...(pid !== undefined && status !== 'stopped'
        ? { pid, priority: this.process?.lowered === true ? 'lower' : 'normal' }
        : {}),
      ...(this.runtime !== undefined ? { runtime: this.runtime } : {}),
      ...(this.sandbox !== undefined ? { sandbox: this.sandboxFacts(this.sandbox) } : {}),
    };
  }

  private sandboxFacts(sandbox: ServerSandbox): ServerSandbox {
    const blocked = this.blocked?.list ?? [];
    return blocked.length > 0 ? { ...sandbox, blocked } : sandbox;
  }

  signInFailure(): HostError | undefined {
    return undefined;
  }

  blockedSince(at: number): string[] | undefined {
    return this.blocked?.since(at);
  }

  /**
   * Spawns the server and completes the handshake, with the era remembered
   * for this program if there is one; records the era it settled on for the
   * next start.
   */
  async connect(attempt: ConnectAttempt): Promise<TransportSession> {
    const { name, options } = this;
    const config = this.config;
    const environment = await options.environment();
    const secrets = await options.launchSecrets?.(name, config);
    const expanded = await withSecrets(name, config, options.secrets);
    const resolved = await resolveLaunch(name, expanded, environment, undefined, secrets);
    const identity = stdioIdentity(config);
    // Refusals of its network proxy are reported with the others, once the list below exists.
    let proxyRefused = (_attempt: string, _reason: string): void => undefined;
    await this.network?.close();
    const { launch, sandbox, policy, home, network } = await sandboxStart(
      name,
      expanded,
      identity,
      { ...resolved.launch, priority: priorityOf(config) },
      options.sandbox,
      (what, reason) => {
        proxyRefused(what, reason);
      },
    );
    this.network = network;
    if (!attempt.isCurrent()) {
      await network?.close();
      throw new Error('stopped while starting');
    }
    const runtime = resolved.runtime;
    this.runtime = runtime;
    this.sandbox = sandbox;
    if (runtime.note !== undefined) attempt.output.note(runtime.note, 'info');
    if (sandbox.state === 'off') {
      attempt.output.note(
        `Not sandboxed: ${sandbox.reason ?? 'unknown reason'}${sandbox.fix ? ` (fix: ${sandbox.fix})` : ''}`,
        'warning',
      );
    }
    let blockedTimer: NodeJS.Timeout | undefined;
    let pending: string[] = [];
    const blocked = policy
      ? new BlockedAttempts(
          {
            home,
            // Its own empty network: a refused connection or a failed look-up is the sandbox's doing.
            networkDenied: true,
            hidden: policy.hideDirs,
            own: [policy.stateFolder, ...policy.exposeDirs, ...policy.tmpDirs],
          },
          (what, detail) => {
            // Each attempt is logged once; a burst of them also gives one grouped line.
            attempt.output.note(
              `Sandbox blocked: ${what}${detail !== undefined ? ` (${detail})` : ''}`,
              'warning',
            );
            pending.push(what);
            blockedTimer ??= setTimeout(() => {
              blockedTimer = undefined;
              if (pending.length > 1) attempt.log('warning', blockedNotice(pending));
              pending = [];
              attempt.changed();
            }, 250);
            blockedTimer.unref();
          },
        )
      : undefined;
    this.blocked = blocked;
    proxyRefused = (what, reason) => {
      blocked?.add(what, reason);
    };
    const verdicts = options.eraVerdicts;
    const remembered = verdicts?.get(name);
    const prior = priorFor(remembered, identity);
    const launcher = launcherLines(config.command, config.args ?? []);
    const connecting = connectStdio({
      name,
      launch,
      graceMs: options.stopGraceMs ?? 2000,
      connectTimeoutMs: attempt.connectTimeoutMs,
      prior,
      isCurrent: () => attempt.isCurrent(),
      output: attempt.output,
      ...(blocked
        ? {
            watchStderr: (line: string) => {
              blocked.line(line);
            },
          }
        : {}),
      newClient: () => {
        this.client = attempt.newClient(prior, probePatienceMs(attempt.connectTimeoutMs));
        return this.client;
      },
      afterConnect: (connected) => attempt.loadCatalog(connected),
      adopt: (process) => {
        this.process = process;
        attempt.output.newProcess(launcher);
        if (attempt.isCurrent()) attempt.changed();
      },
      onProcessExit: (exit) => {
        logExit(attempt, exit);
      },
      onRetry: (reason) => {
        attempt.output.note(reason, 'warning');
      },
      describeFailure: (error, process) =>
        attempt.describeFailure(error, 'initialize', endingOf(process, attempt.output)),
      describeExit: (exit, process) =>
        exitMessage(
          name,
          exit,
          'before completing the MCP handshake',
          attempt.output,
          sandbox.state === 'on',
          process.pendingStdout,
        ),
    });
    // A start that fails takes its proxy with it.
    const { client, transport, settledBy } = await connecting.catch(async (error: unknown) => {
      await network?.close();
      throw error;
    });
    // Started: the launcher is done downloading, its registry is asked about like any other host.
    network?.proxy.endDownloadStep();
    const session = this.session(client, transport, attempt, network);
    if (attempt.isCurrent() && verdicts) {
      const settled =
        settledBy === 'prior'
          ? { by: 'prior' as const, rememberedVersion: remembered?.serverVersion }
          : { by: 'probe' as const };
      const note = recordEra(verdicts, name, client, identity, settled);
      if (note !== undefined) attempt.log('info', note);
    }
    return session;
  }

  async abandon(): Promise<void> {
    const { client, process, network } = this;
    this.client = undefined;
    await client?.close().catch(() => undefined);
    await process?.close();
    await network?.close();
  }

  private session(
    client: Client,
    process: StdioProcessTransport,
    attempt: ConnectAttempt,
    network: ServerNetwork | undefined,
  ): TransportSession {
    const session: TransportSession = {
      client,
      onEnded: undefined,
      ending: () => endingOf(process, attempt.output),
      close: async (failed) => {
        if (failed) await process.terminate();
        // Client.close closes the transport, which runs the stop sequence (once).
        await client.close().catch(() => undefined);
        await process.close();
        await network?.close();
      },
    };
    process.onExit = (exit) => {
      void network?.close();
      logExit(attempt, exit);
      session.onEnded?.(
        exitMessage(this.name, exit, 'unexpectedly', attempt.output, this.sandbox?.state === 'on'),
      );
    };
    return session;
  }
}

function endingOf(process: StdioProcessTransport, output: ServerOutput): SessionEnding | undefined {
  const exit = process.exit;
  return exit ? { status: exit, lastWords: output.lastWords(process.pendingStdout) } : undefined;
}

/**
 * How the process ended, in one line. In the sandbox the process the host
 * started is bubblewrap, which passes on the server's exit code: a signal
 * means bubblewrap itself was killed (the server goes with it).
 */
function exitMessage(
  name: string,
  exit: ProcessExit,
  when: string,
  output: ServerOutput,
  sandboxed: boolean,
  pendingStdout = '',
): string {
  const words = output.lastWords(pendingStdout);
  const how =
    sandboxed && exit.signal
      ? `stopped ${when}: its sandbox (bubblewrap) was killed by ${exit.signal}, and the server with it`
      : `${describeExitStatus(exit)} ${when}`;
  return `Server "${name}" ${how}${words ? `. ${words}` : ''}`;
}

function logExit(attempt: ConnectAttempt, exit: ProcessExit): void {
  const how = exit.signal ? `killed by ${exit.signal}` : `exited with code ${String(exit.code)}`;
  attempt.log(exit.signal !== null || exit.code !== 0 ? 'warning' : 'info', `Process ${how}`);
}
