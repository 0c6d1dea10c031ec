import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { pageCookieHeader } from '../../electron/headless/proofs.js';
import { SESSION_FILE_NAME } from '../../electron/headless/session-file.js';

export const cliPath = fileURLToPath(new URL('../../dist/cli/mcp-host.mjs', import.meta.url));

/** A real `mcp-host serve` process (the built CLI) on its own data folder. */
export interface HeadlessProcess {
  /** The sign-in link `serve` printed (single use). */
  url: string;
  /** The page's own address (the same across restarts on one data folder; no credential in it). */
  home: string;
  port: number;
  /** The data folder's access token (from its session file, as the CLI reads it). */
  token: string;
  /** XDG_CONFIG_HOME of the process: its data folder is `<dir>/MCP Host`. */
  dir: string;
  child: ChildProcess;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
  stop(): Promise<void>;
}

/** A fresh folder holding an empty configuration file. */
export function headlessDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-host-headless-'));
  writeFileSync(join(dir, 'mcp-servers.json'), JSON.stringify({ mcpServers: {} }));
  return dir;
}

/** Starts `mcp-host serve` on `dir` (a fresh one by default) and waits for its URL. */
export async function startHeadlessProcess(
  dir = headlessDir(),
  /** Without a port, `serve` runs without --port: the data folder's remembered port, or a free one. */
  options: { port?: number; env?: Record<string, string> } = {},
): Promise<HeadlessProcess> {
  if (!existsSync(cliPath)) throw new Error('dist/cli/mcp-host.mjs is missing: run `npm run build` first');
  const child = spawn(
    process.execPath,
    [
      cliPath,
      'serve',
      ...(options.port !== undefined ? ['--port', String(options.port)] : []),
      '--config',
      join(dir, 'mcp-servers.json'),
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, XDG_CONFIG_HOME: dir, MCP_HOST_SKIP_LOGIN_SHELL: '1', ...options.env },
    },
  );
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const url = await servedUrl(child, () => err);
  const parsed = new URL(url);
  return {
    url,
    home: new URL('/', url).href,
    port: Number(parsed.port),
    token: sessionToken(dir),
    dir,
    child,
    stderr: () => err,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The access token in the session file of the data folder under `dir` (XDG_CONFIG_HOME). */
export function sessionToken(dir: string): string {
  const session = JSON.parse(readFileSync(join(dir, 'MCP Host', SESSION_FILE_NAME), 'utf8')) as {
    token: string;
  };
  return session.token;
}

/** The headers a signed-in page sends to the shell on `port` (its cookie). */
export function pageHeaders(app: { port: number; token: string }): Record<string, string> {
  return { Cookie: pageCookieHeader(app.token, app.port) };
}

/** The shell's IPC socket address. */
export const ipcUrl = (port: number) => `ws://127.0.0.1:${String(port)}/ipc`;

/**
 * Waits until a starting `mcp-host serve` prints its sign-in link
 * (20 s at most); rejects, quoting its output, if it exits first.
 */
export function servedUrl(child: ChildProcess, stderr: () => string = () => ''): Promise<string> {
  if (!child.stdout) throw new Error('servedUrl needs the process started with a piped stdout');
  const stdout = child.stdout;
  return new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      reject(new Error(`mcp-host serve did not print its URL: ${out} ${stderr()}`));
    }, 20_000);
    stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /http:\/\/127\.0\.0\.1:\d+\/login\?code=[\w.-]+/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[0]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`mcp-host serve exited with ${String(code)}: ${out} ${stderr()}`));
    });
  });
}

/**
 * Opens an authenticated WebSocket by hand (no client library), so a test can
 * then write frames no well-behaved client would send.
 */
export function rawUpgrade(app: Pick<HeadlessProcess, 'port' | 'token'>): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: app.port }, () => {
      const origin = `http://127.0.0.1:${String(app.port)}`;
      socket.write(
        [
          `GET /ipc HTTP/1.1`,
          `Host: 127.0.0.1:${String(app.port)}`,
          `Cookie: ${pageCookieHeader(app.token, app.port)}`,
          `Origin: ${origin}`,
          'Upgrade: websocket',
          'Connection: Upgrade',
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
          'Sec-WebSocket-Version: 13',
          '',
          '',
        ].join('\r\n'),
      );
    });
    let head = '';
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      if (head.startsWith('HTTP/1.1 101')) resolve(socket);
      else reject(new Error(`upgrade refused: ${head.split('\r\n')[0] ?? ''}`));
    };
    socket.on('data', onData);
    socket.once('error', reject);
  });
}

/** A client frame (masked, as the protocol requires) with the given first byte and payload. */
export function clientFrame(firstByte: number, payload: Buffer, declaredLength?: bigint): Buffer {
  const length = declaredLength ?? BigInt(payload.length);
  let header: Buffer;
  if (length < 126n) header = Buffer.from([firstByte, 0x80 | Number(length)]);
  else if (length < 65536n) {
    header = Buffer.alloc(4);
    header[0] = firstByte;
    header[1] = 0x80 | 126;
    header.writeUInt16BE(Number(length), 2);
  } else {
    header = Buffer.alloc(10);
    header[0] = firstByte;
    header[1] = 0x80 | 127;
    header.writeBigUInt64BE(length, 2);
  }
  const mask = randomBytes(4);
  const masked = Buffer.from(payload.map((byte, i) => byte ^ (mask[i % 4] ?? 0)));
  return Buffer.concat([header, mask, masked]);
}

/**
 * Resolves with true when the peer closes the socket or starts the WebSocket
 * closing handshake (a close frame), or with false after `ms`.
 */
export function closedWithin(socket: Socket, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    if (socket.destroyed) {
      resolve(true);
      return;
    }
    const done = (value: boolean) => {
      clearTimeout(timer);
      resolve(value);
    };
    const timer = setTimeout(() => {
      done(false);
    }, ms);
    socket.once('close', () => {
      done(true);
    });
    socket.on('data', (chunk: Buffer) => {
      if (chunk[0] === 0x88) done(true);
    });
    socket.on('error', () => undefined);
  });
}
