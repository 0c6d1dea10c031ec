import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { join } from 'node:path';
import type { HttpServerConfig, ServerConfig, StdioServerConfig } from '../../shared/model/config.js';
import {
  basePython,
  environmentBin,
  environmentDir,
  pythonFolder,
  readPythonCorpus,
  which,
} from '../../scripts/compat-python.mjs';
import type { PythonServer } from '../../scripts/compat-python.mjs';
import { stopProcess } from '../helpers/http-servers.js';
import { cacheRoot } from '../../scripts/compat-corpus.mjs';

export { readPythonCorpus } from '../../scripts/compat-python.mjs';
export type { PythonServer } from '../../scripts/compat-python.mjs';

/** The Python half as it can run on this machine: the servers that run, and why the others are skipped. */
export interface PythonCorpusHere {
  servers: PythonServer[];
  skipped: { name: string; reason: string }[];
  /** Environment folders by name (made by `npm run test:compat`). */
  dirs: Record<string, string>;
}

export const UV_MISSING =
  'uv (uvx) is not installed on this machine, and no npm package ships its binary; install uv (https://docs.astral.sh/uv/) to run the uvx entries';

export function pythonCorpusHere(): PythonCorpusHere {
  const corpus = readPythonCorpus();
  const python = basePython();
  if ('missing' in python) {
    return {
      servers: [],
      skipped: corpus.servers.map((s) => ({ name: s.name, reason: python.missing })),
      dirs: {},
    };
  }
  const dirs = Object.fromEntries(
    Object.keys(corpus.environments).map((name) => [name, environmentDir(cacheRoot(), name, python.version)]),
  );
  const uvx = which('uvx');
  const servers: PythonServer[] = [];
  const skipped: PythonCorpusHere['skipped'] = [];
  for (const server of corpus.servers) {
    if (server.launch === 'uvx' && uvx === undefined) skipped.push({ name: server.name, reason: UV_MISSING });
    else servers.push(server);
  }
  return { servers, skipped, dirs };
}

/** Whether every environment of the Python half is made. */
export function pythonInstalled(here: PythonCorpusHere): boolean {
  return Object.values(here.dirs).every((dir) => existsSync(join(dir, '.installed')));
}

function interpreter(dir: string): string {
  return join(environmentBin(dir), process.platform === 'win32' ? 'python.exe' : 'python');
}

function expand(args: string[] | undefined, scratch: string, port = 0): string[] {
  return (args ?? []).map((arg) => arg.replaceAll('${tmp}', scratch).replaceAll('${port}', String(port)));
}

/** The stdio entry of a server people start themselves (console script, python -m, python <file>, uvx). */
export function pythonStdioConfig(
  server: PythonServer,
  here: PythonCorpusHere,
  scratch: string,
): StdioServerConfig {
  const args = expand(server.args, scratch);
  const env = server.env !== undefined ? { env: server.env } : {};
  const dir = server.environment !== undefined ? here.dirs[server.environment] : undefined;
  switch (server.launch) {
    case 'uvx':
      return { command: 'uvx', args, ...env };
    case 'script':
      return { command: join(environmentBin(need(dir, server)), server.bin ?? server.name), args, ...env };
    case 'module':
      return { command: interpreter(need(dir, server)), args: ['-m', server.module ?? '', ...args], ...env };
    case 'file':
      return {
        command: interpreter(need(dir, server)),
        args: [join(pythonFolder, 'servers', server.file ?? ''), ...args],
        ...env,
      };
    case 'url':
      throw new Error(`${server.name} is reached over HTTP`);
  }
}

function need(dir: string | undefined, server: PythonServer): string {
  if (dir === undefined) throw new Error(`${server.name}: no environment ${String(server.environment)}`);
  return dir;
}

/** The servers of ours served over HTTP, running: their entries for the host and a way to stop them. */
export interface HttpServers {
  configs: Record<string, HttpServerConfig>;
  stop(): Promise<void>;
}

/**
 * Starts every 'url' server of the Python half on a free loopback port and
 * waits until each accepts connections (FastMCP 4 takes seconds to start).
 */
export async function startHttpServers(here: PythonCorpusHere, scratch: string): Promise<HttpServers> {
  const children: ChildProcess[] = [];
  const configs: Record<string, HttpServerConfig> = {};
  const stop = async (): Promise<void> => {
    await Promise.all(children.map((child) => stopProcess(child, 3_000)));
  };
  try {
    await Promise.all(
      here.servers
        .filter((s) => s.launch === 'url')
        .map(async (server) => {
          const port = await freePort();
          const child = spawn(
            interpreter(
              need(server.environment !== undefined ? here.dirs[server.environment] : undefined, server),
            ),
            [join(pythonFolder, 'servers', server.file ?? ''), ...expand(server.args, scratch, port)],
            { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...(server.env ?? {}) } },
          );
          children.push(child);
          let stderr = '';
          child.stderr.on('data', (chunk: Buffer) => {
            stderr = (stderr + chunk.toString()).slice(-2_000);
          });
          await waitForPort(port, child, () => stderr);
          configs[server.name] = {
            type: server.type ?? 'http',
            url: `http://127.0.0.1:${String(port)}${server.path ?? '/mcp'}`,
          };
        }),
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { configs, stop };
}

/** Every runnable server of the Python half's entry, keyed by name (HTTP ones from `http`). */
export function pythonConfigs(
  here: PythonCorpusHere,
  scratch: string,
  http: HttpServers,
): Record<string, ServerConfig> {
  return Object.fromEntries(
    here.servers.map((s) => {
      const config: ServerConfig | undefined =
        s.launch === 'url' ? http.configs[s.name] : pythonStdioConfig(s, here, scratch);
      if (config === undefined) throw new Error(`${s.name} was not started`);
      return [s.name, config];
    }),
  );
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => {
        resolve(port);
      });
    });
  });
}

async function waitForPort(
  port: number,
  child: ChildProcess,
  stderr: () => string,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`server on port ${String(port)} exited (${String(child.exitCode)}): ${stderr()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ port, host: '127.0.0.1' });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => {
        resolve(false);
      });
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(
    `server on port ${String(port)} did not listen within ${String(timeoutMs / 1000)} s: ${stderr()}`,
  );
}
