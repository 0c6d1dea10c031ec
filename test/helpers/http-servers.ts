import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { everythingEntry } from './servers.js';

/** A remote server process the test started, on a free port of 127.0.0.1. */
export interface HttpServerProcess {
  /** http://127.0.0.1:PORT */
  origin: string;
  stop(): Promise<void>;
}

/** A port that was free a moment ago (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => {
        resolve(port);
      });
    });
  });
}

/** Ends a child with SIGTERM (and SIGKILL after `killAfterMs`, when given); resolves once it has exited. */
export function stopProcess(child: ChildProcess, killAfterMs?: number): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve();
      return;
    }
    child.once('exit', () => {
      resolve();
    });
    child.kill('SIGTERM');
    if (killAfterMs !== undefined)
      setTimeout(() => {
        child.kill('SIGKILL');
      }, killAfterMs).unref();
  });
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () => stopProcess(child);
}

/** Resolves with the first line of `stream` that matches, or rejects when the process exits first. */
function waitForLine(child: ChildProcess, stream: NodeJS.ReadableStream, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: stream });
    const onExit = (code: number | null) => {
      reject(new Error(`server exited with code ${String(code)} before it was ready`));
    };
    child.once('exit', onExit);
    lines.on('line', (line) => {
      if (!pattern.test(line)) return;
      child.off('exit', onExit);
      lines.close();
      resolve(line);
    });
  });
}

/** server-everything in its `sse` or `streamableHttp` mode. */
export async function startEverythingHttp(mode: 'sse' | 'streamableHttp'): Promise<HttpServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [everythingEntry, mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await waitForLine(child, child.stderr, /(listening|running) on port/i);
  return { origin: `http://127.0.0.1:${String(port)}`, stop: stopper(child) };
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | undefined>;
  body: unknown;
}

/** test/fixtures/servers/http-fixture-server.mjs, with access to the requests it recorded. */
export interface HttpFixture extends HttpServerProcess {
  requests(): Promise<RecordedRequest[]>;
}

export async function startHttpFixture(): Promise<HttpFixture> {
  const entry = fileURLToPath(new URL('../fixtures/servers/http-fixture-server.mjs', import.meta.url));
  const child = spawn(process.execPath, [entry], { stdio: ['pipe', 'pipe', 'inherit'] });
  const line = await waitForLine(child, child.stdout, /"port"/);
  const { port } = JSON.parse(line) as { port: number };
  const origin = `http://127.0.0.1:${String(port)}`;
  return {
    origin,
    stop: stopper(child),
    async requests() {
      const response = await fetch(`${origin}/__requests`);
      return (await response.json()) as RecordedRequest[];
    },
  };
}

/** test/fixtures/servers/modern-server.mjs in its HTTP mode (v2 server SDK, 2026-07-28 era). */
export async function startModernHttp(
  options: { full?: boolean; toolsTtlMs?: number } = {},
): Promise<HttpServerProcess> {
  const entry = fileURLToPath(new URL('../fixtures/servers/modern-server.mjs', import.meta.url));
  const args = [entry, 'http', ...(options.full === true ? ['full'] : [])];
  const env =
    options.toolsTtlMs === undefined
      ? process.env
      : { ...process.env, MODERN_TOOLS_TTL_MS: String(options.toolsTtlMs) };
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], env });
  const line = await waitForLine(child, child.stdout, /"port"/);
  const { port } = JSON.parse(line) as { port: number };
  return { origin: `http://127.0.0.1:${String(port)}`, stop: stopper(child) };
}

/** test/fixtures/servers/task-ext-server.mjs in its HTTP mode (the 2026-07-28 Tasks extension). */
export async function startTaskExtensionHttp(): Promise<HttpServerProcess> {
  const entry = fileURLToPath(new URL('../fixtures/servers/task-ext-server.mjs', import.meta.url));
  const child = spawn(process.execPath, [entry, 'http'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await waitForLine(child, child.stdout, /"port"/);
  const { port } = JSON.parse(line) as { port: number };
  return { origin: `http://127.0.0.1:${String(port)}`, stop: stopper(child) };
}

/** test/fixtures/servers/task-http-server.mjs: a remote server whose tasks outlive the host's session. */
export async function startTaskHttp(): Promise<HttpServerProcess> {
  const entry = fileURLToPath(new URL('../fixtures/servers/task-http-server.mjs', import.meta.url));
  const child = spawn(process.execPath, [entry], { stdio: ['pipe', 'pipe', 'inherit'] });
  const line = await waitForLine(child, child.stdout, /"port"/);
  const { port } = JSON.parse(line) as { port: number };
  return { origin: `http://127.0.0.1:${String(port)}`, stop: stopper(child) };
}
