import type { ChildProcess } from 'node:child_process';
import { delimiter } from 'node:path';
import spawn from 'cross-spawn';
import { parseJSONRPCMessage, serializeMessage } from '@modelcontextprotocol/client';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { HostError } from '../../errors.js';
import { splitJsonRpcBatch } from '../transport/batch-tolerant-transport.js';
import { LineSplitter } from './line-splitter.js';
import type { OversizedLine } from './line-splitter.js';
import { oversizedReplyError, oversizedResponseId } from './oversized-reply.js';
import { signalTree, trackProcessTree, treeAlive, untrackProcessTree } from './process-group.js';
import { ellipsize } from '../../text.js';
import type { ServerPriority } from '../../../../shared/model/config.js';
import { lowerProcessPriority } from './process-priority.js';

export interface StdioLaunch {
  command: string;
  args: readonly string[];
  env: Record<string, string>;
  cwd?: string | undefined;
  /** `lower`: the process is lowered at once after the spawn (process-priority.ts); absent: as the host. */
  priority?: ServerPriority | undefined;
}

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface StdioTransportOptions {
  /** How long each stop step (stdin closed, SIGTERM) may take before the next. Default 2 s. */
  graceMs?: number;
  /** Largest stdout line (one JSON-RPC message) accepted. Default 16 MiB. */
  maxMessageBytes?: number;
  /** Longest stderr line kept; longer lines are cut. Default 4 KiB. */
  maxStderrLineBytes?: number;
}

/**
 * The MCP stdio transport, framing only: newline-delimited JSON-RPC over a
 * child's stdin/stdout, parsed with the SDK's own message schema. We own it
 * (rather than the SDK's StdioClientTransport) because a desktop host must
 * decide what the SDK leaves open: the child runs in its own process group so
 * the whole tree can be stopped; stop is stdin close → SIGTERM → SIGKILL;
 * stdout lines that are not MCP messages (banners, stray prints) are skipped
 * and reported; stderr floods and endless lines are held in bounded buffers;
 * a reply over the size limit fails its request at once.
 *
 * It presents itself to the SDK as a stdio transport (`pid` and `stderr`),
 * which the SDK's version negotiation checks: on stdio a version probe that
 * goes unanswered means a legacy server, on HTTP it means an outage.
 */
export class StdioProcessTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;
  /** Each line the server writes to stderr. */
  onStderrLine?: (line: string) => void;
  /** A stdout line that is not a JSON-RPC message (cut to 200 characters); it is skipped. */
  onStrayStdout?: (line: string) => void;
  /**
   * Looks at each line as parsed JSON before the SDK's schema parse (a
   * connected client's fast lane, servers/inbound-fast-lane.ts); true keeps
   * it from the SDK.
   */
  firstLook: ((value: unknown) => boolean) | undefined = undefined;
  /** Sees each message sent, and each received before the SDK does (returning true keeps it from the SDK). */
  observer?: { sent: (message: JSONRPCMessage) => void; received: (message: JSONRPCMessage) => boolean };
  /** The process ended (before `onclose`). */
  onExit?: (exit: ProcessExit) => void;

  private child: ChildProcess | undefined;
  private isLowered = false;
  private exitInfo: ProcessExit | undefined;
  private isClosed = false;
  private stopping: Promise<void> | undefined;
  private readonly graceMs: number;
  private readonly maxMessageBytes: number;
  private readonly maxStderrLineBytes: number;
  private stdoutLines: LineSplitter | undefined;
  private starting = false;
  /** The oversized line being skipped already failed its request. */
  private oversizedAnswered = false;
  private markClosed: () => void = () => undefined;
  /**
   * Settles once the transport is closed: after the process ended, everything
   * it wrote to stdout has been read (or 250 ms passed for a grandchild holding
   * the pipe), so a decision taken then has seen its last words.
   */
  readonly closed: Promise<void> = new Promise((resolve) => {
    this.markClosed = resolve;
  });

  constructor(
    private readonly launch: StdioLaunch,
    options: StdioTransportOptions = {},
  ) {
    this.graceMs = options.graceMs ?? 2000;
    this.maxMessageBytes = options.maxMessageBytes ?? 16 * 1024 * 1024;
    this.maxStderrLineBytes = options.maxStderrLineBytes ?? 4096;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The process runs below normal CPU priority (its launch asked for `lower` and that was set). */
  get lowered(): boolean {
    return this.isLowered;
  }

  /**
   * Always null: stderr is read by the transport itself and handed out line
   * by line (`onStderrLine`). The property exists because the SDK recognises
   * a stdio transport by its `pid` and `stderr`.
   */
  get stderr(): null {
    return null;
  }

  /** The start of an unfinished stdout line, e.g. a prompt waiting for an answer that will never come. */
  get pendingStdout(): string {
    return this.stdoutLines?.peekPending() ?? '';
  }

  /** How the process ended, once it has. */
  get exit(): ProcessExit | undefined {
    return this.exitInfo;
  }

  async start(): Promise<void> {
    if (this.child || this.starting) throw new Error('StdioProcessTransport already started');
    this.starting = true;
    await spawnTurn();
    if (this.isClosed) throw new HostError('cancelled', 'The server was stopped before it started');
    const { command, args, env, cwd } = this.launch;
    return new Promise((resolve, reject) => {
      const child = spawn(command, [...args], {
        env,
        cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
        windowsHide: true,
        // Own process group on POSIX, so stop() can signal the whole tree.
        detached: process.platform !== 'win32',
      });
      this.child = child;
      // Before anything else: what the server starts from now on inherits the lower priority.
      if (this.launch.priority === 'lower' && child.pid !== undefined)
        this.isLowered = lowerProcessPriority(child.pid);

      child.once('error', (error: NodeJS.ErrnoException) => {
        const failure = spawnFailure(error, command, env);
        if (child.pid === undefined) {
          this.finish();
          reject(failure);
        } else {
          this.onerror?.(failure);
        }
      });
      child.once('spawn', () => {
        trackProcessTree(child);
        resolve();
      });
      child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        untrackProcessTree(child);
        this.onExit?.(this.exitInfo);
        // Whatever the server left behind in its group goes with it.
        if (treeAlive(child)) signalTree(child, 'SIGTERM');
        // 'close' waits for stdio to drain; a grandchild holding the pipes
        // open must not keep the connection looking alive.
        setTimeout(() => {
          this.finish();
        }, 250).unref();
      });
      child.once('close', () => {
        this.finish();
      });

      const stdout = new LineSplitter(this.maxMessageBytes, {
        onLine: (line) => {
          this.handleStdoutLine(line);
        },
        onOversized: (line) => {
          this.handleOversized(line);
        },
      });
      this.stdoutLines = stdout;
      child.stdout?.on('data', (chunk: Buffer) => {
        stdout.push(chunk);
      });
      const stderr = new LineSplitter(this.maxStderrLineBytes, {
        onLine: (line) => this.onStderrLine?.(line),
        onOversized: (line) => {
          if (!line.ended) this.onStderrLine?.(`${line.head}…`);
        },
      });
      child.stderr?.on('data', (chunk: Buffer) => {
        stderr.push(chunk);
      });
      // EPIPE and friends after the child died are reported through exit/close.
      child.stdin?.on('error', () => undefined);
      child.stdout?.on('error', () => undefined);
      child.stderr?.on('error', () => undefined);
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.isClosed || this.exitInfo || !stdin.writable) {
      return Promise.reject(new HostError('not_connected', 'The server process is not running'));
    }
    this.observer?.sent(message);
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Stops the server: close stdin, then SIGTERM, then SIGKILL, each after the grace period. */
  close(): Promise<void> {
    this.stopping ??= this.stop(true);
    return this.stopping;
  }

  /** Stops a server that failed its handshake: SIGTERM at once, SIGKILL after the grace period. */
  terminate(): Promise<void> {
    this.stopping ??= this.stop(false);
    return this.stopping;
  }

  private async stop(politely: boolean): Promise<void> {
    const child = this.child;
    if (!child || child.pid === undefined) {
      this.finish();
      return;
    }
    const gone = () => !treeAlive(child) && (this.exitInfo !== undefined || child.exitCode !== null);
    try {
      child.stdin?.end();
    } catch {
      // Already closed.
    }
    if (!politely || !(await waitFor(gone, this.graceMs))) {
      signalTree(child, 'SIGTERM');
      if (!(await waitFor(gone, this.graceMs))) {
        signalTree(child, 'SIGKILL');
        await waitFor(gone, this.graceMs);
      }
    }
    untrackProcessTree(child);
    this.finish();
  }

  private handleStdoutLine(line: string): void {
    if (isBlank(line)) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.onStrayStdout?.(line.slice(0, 200));
      return;
    }
    if (this.firstLook?.(value) === true) return;
    // A 2025-03-26 server may batch several messages into one array.
    const messages = Array.isArray(value) ? splitJsonRpcBatch(value) : oneMessage(value);
    if (messages) for (const message of messages) this.deliver(message);
    else this.onStrayStdout?.(line.slice(0, 200));
  }

  private deliver(message: JSONRPCMessage): void {
    if (this.observer?.received(message) === true) return;
    this.onmessage?.(message);
  }

  /**
   * A line over the size limit is never parsed. When it is recognisably the
   * reply to one of our requests, that request fails now with an error saying
   * so (from the line's head, before the rest of it has even arrived, or from
   * its tail); anything else is reported like any stray line.
   */
  private handleOversized(line: OversizedLine): void {
    if (line.ended && this.oversizedAnswered) {
      // Already failed from the line's head when it passed the limit.
      this.oversizedAnswered = false;
      return;
    }
    const id = oversizedResponseId(line);
    if (id !== undefined) {
      this.oversizedAnswered = !line.ended;
      this.deliver(oversizedReplyError(id, line, this.maxMessageBytes));
    } else if (line.ended) {
      this.onStrayStdout?.(
        `${line.head.slice(0, 120)}… (a line of ${String(line.bytes)} bytes, over the limit)`,
      );
    }
  }

  private finish(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.markClosed();
    const child = this.child;
    child?.stdout?.destroy();
    child?.stderr?.destroy();
    child?.stdin?.destroy();
    this.onclose?.();
  }
}

/** A parsed line as the one JSON-RPC message it is, checked with the SDK's schema; undefined if it is none. */
function oneMessage(value: unknown): JSONRPCMessage[] | undefined {
  try {
    return [parseJSONRPCMessage(value)];
  } catch {
    return undefined;
  }
}

let spawnQueue: Promise<void> = Promise.resolve();

/**
 * Waits for this transport's turn to spawn. Spawning is synchronous in Node
 * (tens of ms for a large process on a busy machine), so twenty servers
 * started at once would block the host for the whole burst; one spawn per
 * event-loop turn keeps it answering the UI in between. Only the spawn call
 * itself is paced: the servers still start and connect in parallel.
 */
function spawnTurn(): Promise<void> {
  const turn = spawnQueue.then(
    () =>
      new Promise<void>((resolve) => {
        setImmediate(resolve);
      }),
  );
  spawnQueue = turn;
  return turn;
}

export function spawnFailure(
  error: NodeJS.ErrnoException,
  command: string,
  env: Record<string, string>,
): HostError {
  if (error.code === 'ENOENT') {
    return new HostError(
      'connection_failed',
      `Command not found: "${command}" (searched PATH: ${describeSearchPath(env.PATH ?? env.Path ?? '')})`,
    );
  }
  if (error.code === 'EACCES') {
    return new HostError('connection_failed', `Permission denied running "${command}"`);
  }
  return new HostError('connection_failed', `Cannot start "${command}": ${error.message}`);
}

/** The PATH as searched: duplicates dropped, and bounded so the message stays one readable line. */
function describeSearchPath(path: string, max = 600): string {
  const entries = [...new Set(path.split(delimiter).filter((entry) => entry !== ''))];
  if (entries.length === 0) return '(empty)';
  const joined = entries.join(delimiter);
  return ellipsize(joined, max);
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return true;
}

/** Whether a line is only whitespace, without copying it (a message can be megabytes). */
function isBlank(line: string): boolean {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
  }
  return true;
}
