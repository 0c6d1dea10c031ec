import type { ChildProcess } from 'node:child_process';
import { delimiter } from 'node:path';
import spawn from 'cross-spawn';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/client';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { HostError } from '../errors.js';
import { splitBatchText } from './batch-tolerant-transport.js';
import { LineSplitter } from './line-splitter.js';
import { signalTree, trackProcessTree, treeAlive, untrackProcessTree } from './process-group.js';
import { ellipsize } from '../text.js';

export interface StdioLaunch {
  command: string;
  args: readonly string[];
  env: Record<string, string>;
  cwd?: string | undefined;
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
 * stdout garbage and stderr floods are held in bounded buffers and reported.
 */
export class StdioProcessTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;
  /** Each line the server writes to stderr. */
  onStderrLine?: (line: string) => void;
  /** A stdout line that is not a JSON-RPC message (a preview of it). */
  onStdoutGarbage?: (preview: string) => void;
  /** The process ended (before `onclose`). */
  onExit?: (exit: ProcessExit) => void;

  private child: ChildProcess | undefined;
  private exitInfo: ProcessExit | undefined;
  private closed = false;
  private stopping: Promise<void> | undefined;
  private readonly graceMs: number;
  private readonly maxMessageBytes: number;
  private readonly maxStderrLineBytes: number;

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

  /** How the process ended, once it has. */
  get exit(): ProcessExit | undefined {
    return this.exitInfo;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('StdioProcessTransport already started');
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

      const stdout = new LineSplitter(
        this.maxMessageBytes,
        (line) => {
          this.handleStdoutLine(line);
        },
        (preview) => this.onStdoutGarbage?.(`${preview}… (line over ${String(this.maxMessageBytes)} bytes)`),
      );
      child.stdout?.on('data', (chunk: Buffer) => {
        stdout.push(chunk);
      });
      const stderr = new LineSplitter(
        this.maxStderrLineBytes,
        (line) => this.onStderrLine?.(line),
        (preview) => this.onStderrLine?.(`${preview}…`),
      );
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
    if (!stdin || this.closed || this.exitInfo || !stdin.writable) {
      return Promise.reject(new HostError('not_connected', 'The server process is not running'));
    }
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
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch {
      // A 2025-03-26 server may batch several messages into one array.
      const batch = splitBatchText(line);
      if (batch) for (const item of batch) this.onmessage?.(item);
      else this.onStdoutGarbage?.(line.slice(0, 200));
      return;
    }
    this.onmessage?.(message);
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    const child = this.child;
    child?.stdout?.destroy();
    child?.stderr?.destroy();
    child?.stdin?.destroy();
    this.onclose?.();
  }
}

function spawnFailure(error: NodeJS.ErrnoException, command: string, env: Record<string, string>): HostError {
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
