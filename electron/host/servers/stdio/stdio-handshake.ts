import { isSpecType } from '@modelcontextprotocol/client';
import type { Client, PriorDiscovery } from '@modelcontextprotocol/client';
import { HostError } from '../../errors.js';
import { HandshakeWatch } from './handshake-watch.js';
import type { HandshakeWait } from './handshake-watch.js';
import type { ServerOutput } from '../lifecycle/server-output.js';
import { StdioProcessTransport } from './stdio-transport.js';
import type { ProcessExit, StdioLaunch } from './stdio-transport.js';

export interface StdioHandshakeParams {
  name: string;
  launch: StdioLaunch;
  graceMs: number;
  /** The time the whole handshake may take (probe, initialize, first listing), in ms. */
  connectTimeoutMs: number;
  /** A remembered era verdict; undefined to probe. */
  prior: PriorDiscovery | undefined;
  /** False once the start was called off (the server stopped): nothing is started again. */
  isCurrent: () => boolean;
  output: ServerOutput;
  /** Sees each stderr line too (the sandbox reads blocked attempts from it). */
  watchStderr?: (line: string) => void;
  /** A fresh SDK client (and catalog) for one attempt. */
  newClient: () => Client;
  /** Runs after the SDK connected: the first listing of tools, resources and prompts. */
  afterConnect: (client: Client) => Promise<void>;
  /** The attempt's transport is now the one to stop, signal and show (pid). */
  adopt: (transport: StdioProcessTransport) => void;
  /** A process of an attempt ended (logged by the caller). */
  onProcessExit: (exit: ProcessExit) => void;
  /** An attempt is given up and the server started again, for the reason given. */
  onRetry: (reason: string) => void;
  /** Words a failure of the SDK (or a HostError) as one line for people. */
  describeFailure: (error: unknown, transport: StdioProcessTransport) => HostError;
  /** "exited with code 1 before completing the MCP handshake. Last stderr: …" */
  describeExit: (exit: ProcessExit, transport: StdioProcessTransport) => string;
}

export interface StdioHandshakeResult {
  client: Client;
  transport: StdioProcessTransport;
  /** How the era was settled: by probing now, or from the remembered verdict. */
  settledBy: 'probe' | 'prior';
}

/** Ends an attempt and starts the server again with another era decision. */
class StartAgain extends Error {
  constructor(
    readonly prior: PriorDiscovery | undefined,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/**
 * How long the version probe (`server/discover`) may go unanswered on stdio
 * before the host also sends `initialize` on the same process. Short on
 * purpose: the Python SDK releases 1.1–1.9.3 read the probe, fail to
 * validate it and then print nothing and answer nothing until the next line
 * arrives (measured with mcp 1.1.3), so no sign of life can tell them apart
 * from a server that is still starting; only sending the next message does.
 * The timer never decides the era (see `connectStdio`): a server that was
 * only slow still answers the probe, which is in its pipe ahead of
 * `initialize`, and is started again in the modern era. Being wrong costs a
 * modern slow starter one restart on its first start only, since the verdict
 * is remembered; being long cost every such legacy server half the connect
 * limit. Never more than half of the connect limit.
 */
export const PROBE_PATIENCE_MS = 2000;

/** The probe patience for a server with this connect limit. */
export function probePatienceMs(connectTimeoutMs: number): number {
  return Math.min(PROBE_PATIENCE_MS, Math.floor(connectTimeoutMs / 2));
}

/**
 * Starts a stdio server and completes the MCP handshake within one time
 * limit, whatever the era:
 *
 * - The SDK probes with `server/discover`. An answer settles the era: a
 *   discover result is the 2026-07-28 era, an error answer the 2025 one
 *   (`initialize` on the same process, which answered and is in a known state).
 * - Unanswered for `probePatienceMs`, the SDK also sends `initialize` on the
 *   same process (our transport counts as stdio). The probe stays pending.
 * - A server that answers the probe only after that is a modern server that
 *   was slow: it is started again in the modern era with the answer it gave.
 *   So the era follows what the server says, never the timer or the load.
 * - A server that exits while its probe is unanswered (at once, or on the
 *   `initialize` that followed, as those Python releases do) cannot take
 *   anything before `initialize`: it is started again straight into the 2025
 *   handshake. The decision waits until its stdout is read to the end, so a
 *   probe answer it wrote before dying still wins.
 * - A remembered verdict skips the probe; if the server refuses the
 *   handshake with it, the server is probed once more before giving up.
 * - The limit is one deadline for all of it. Running out says so, and how
 *   long it waited and for what; it never looks like a crash.
 */
export async function connectStdio(params: StdioHandshakeParams): Promise<StdioHandshakeResult> {
  const deadline = Date.now() + params.connectTimeoutMs;
  let prior = params.prior;
  let fromMemory = prior !== undefined;
  for (let attempt = 1; ; attempt++) {
    try {
      const { client, transport } = await attemptOnce(params, prior, deadline, fromMemory);
      return { client, transport, settledBy: fromMemory ? 'prior' : 'probe' };
    } catch (error) {
      if (!(error instanceof StartAgain) || attempt >= 3 || !params.isCurrent()) throw unwrap(error);
      params.onRetry(error.reason);
      prior = error.prior;
      fromMemory = false;
    }
  }
}

function unwrap(error: unknown): unknown {
  return error instanceof StartAgain ? new HostError('connection_failed', error.reason) : error;
}

async function attemptOnce(
  params: StdioHandshakeParams,
  prior: PriorDiscovery | undefined,
  deadline: number,
  fromMemory: boolean,
): Promise<{ client: Client; transport: StdioProcessTransport }> {
  const { name, output } = params;
  const transport = new StdioProcessTransport(params.launch, { graceMs: params.graceMs });
  const watch = new HandshakeWatch();
  transport.observer = watch;
  transport.onStderrLine = (line) => {
    output.stderrLine(line);
    params.watchStderr?.(line);
  };
  transport.onStrayStdout = (line) => {
    output.strayLine(line);
  };
  params.adopt(transport);

  let settled = false;
  let fail: (error: Error) => void = () => undefined;
  const fatal = new Promise<never>((_, reject) => {
    fail = (error) => {
      if (!settled) reject(error);
    };
  });
  fatal.catch(() => undefined);

  /** What the end of the process means, decided once its stdout has been read to the end. */
  const afterExit = (exit: ProcessExit): StartAgain | HostError => {
    if (prior === undefined && watch.probeUnanswered) {
      // It read the version probe and left: the shape of servers that accept nothing before initialize.
      return new StartAgain(
        { kind: 'legacy' },
        watch.initializeSent
          ? `Server "${name}" left the version probe (server/discover) unanswered and exited on the initialize that followed; starting it again straight into the 2025 initialize handshake`
          : `Server "${name}" exited on the version probe (server/discover); starting it again with the 2025 initialize handshake`,
      );
    }
    return new HostError('server_exited', params.describeExit(exit, transport));
  };
  transport.onExit = (exit) => {
    params.onProcessExit(exit);
    void transport.closed.then(() => {
      fail(afterExit(exit));
    });
  };
  watch.onLateProbeReply = (result) => {
    if (result === undefined || !isSpecType.DiscoverResult(result)) return;
    fail(
      new StartAgain(
        { kind: 'modern', discover: result },
        `Server "${name}" answered the version probe after the host had gone on with the 2025 handshake; starting it again in the 2026-07-28 era`,
      ),
    );
  };

  const remaining = deadline - Date.now();
  const limit = Math.max(0, remaining);
  const timer = setTimeout(() => {
    fail(timedOut(params, watch.waitingFor, transport));
  }, limit);

  const client = params.newClient();
  const running = (async () => {
    // The deadline above ends the attempt; the SDK's own timeout is only a backstop.
    await client.connect(transport, {
      timeout: limit + 1000,
      ...(prior !== undefined ? { prior } : {}),
    });
    await params.afterConnect(client);
  })();
  running.catch(() => undefined);
  try {
    await Promise.race([running, fatal]);
    return { client, transport };
  } catch (error) {
    settled = true;
    // Described before the process is stopped: stopping it must not read as the reason it failed.
    const exit = transport.exit;
    const failure =
      error instanceof StartAgain
        ? error
        : exit !== undefined
          ? // The SDK may see the pipe close before the exit is judged; the exit is the reason.
            await transport.closed.then(() => afterExit(exit))
          : error instanceof HostError
            ? error
            : params.describeFailure(error, transport);
    await transport.terminate();
    await client.close().catch(() => undefined);
    if (failure instanceof StartAgain || failure.code === 'timeout') throw failure;
    // A remembered era the server refuses (it changed): probe once before giving up. A server
    // that simply exits would do so again, so that is reported as it is.
    if (fromMemory && failure.code !== 'server_exited') {
      throw new StartAgain(undefined, `${failure.message}; probing its protocol era again`);
    }
    throw failure;
  } finally {
    settled = true;
    clearTimeout(timer);
  }
}

const WAITING: Readonly<Record<NonNullable<HandshakeWait> | 'listing', string>> = {
  'server/discover': 'it has not answered its first message (server/discover)',
  initialize: 'it has not answered initialize',
  nothing: 'it has not answered any message (neither the server/discover probe nor initialize)',
  listing: 'it did not finish listing its tools, resources and prompts',
};

function timedOut(
  params: StdioHandshakeParams,
  waiting: HandshakeWait,
  transport: StdioProcessTransport,
): HostError {
  const seconds = Math.round(params.connectTimeoutMs / 1000);
  const words = params.output.lastWords(transport.pendingStdout);
  return new HostError(
    'timeout',
    `Server "${params.name}" did not complete the MCP handshake within ${String(seconds)} s: ${WAITING[waiting ?? 'listing']}, so it was stopped${words ? `. ${words}` : ''}. If it needs longer to start, set "connectTimeout" (in ms) in its configuration entry`,
  );
}
