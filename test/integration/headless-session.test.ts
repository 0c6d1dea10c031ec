import { execFile } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { SESSION_FILE_NAME } from '../../electron/headless/session-file.js';
import { pageCookieHeader } from '../../electron/headless/proofs.js';
import {
  cliPath,
  headlessDir,
  ipcUrl,
  sessionToken,
  startHeadlessProcess,
} from '../helpers/headless-process.js';
import type { HeadlessProcess } from '../helpers/headless-process.js';

/** One access token and port per data folder: a restarted host answers the page that is still open. */

let running: HeadlessProcess | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

/** Opens the IPC socket with the cookie of a page signed in with `token`; the HTTP status of a refusal, or 101. */
function socketStatus(port: number, token: string): Promise<{ status: number; ws?: WebSocket }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(ipcUrl(port), {
      headers: { Cookie: pageCookieHeader(token, port) },
      origin: `http://127.0.0.1:${String(port)}`,
    });
    ws.once('open', () => {
      resolve({ status: 101, ws });
    });
    ws.once('unexpected-response', (_req, res) => {
      resolve({ status: res.statusCode ?? 0 });
    });
    ws.once('error', () => {
      resolve({ status: -1 });
    });
  });
}

function rotate(dir: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [cliPath, 'rotate-token'],
      { env: { ...process.env, XDG_CONFIG_HOME: dir } },
      (error, stdout) => {
        if (error) reject(new Error(error.message));
        else resolve(stdout);
      },
    );
  });
}

/** serve without --port, as a person starts it: the remembered port is used. */
const serve = (dir: string) => startHeadlessProcess(dir);

describe('the headless session', () => {
  it('is kept 0600 in the data folder; a restart (after kill -9) has the same address', async () => {
    const dir = headlessDir();
    running = await serve(dir);
    const first = running.url;
    const file = join(dir, 'MCP Host', SESSION_FILE_NAME);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const sandboxPort = (JSON.parse(readFileSync(file, 'utf8')) as { sandboxPort?: number }).sandboxPort;
    expect(sandboxPort).toBeGreaterThan(0);
    running.child.kill('SIGKILL');
    await new Promise((resolve) => running?.child.once('exit', resolve));
    const token = running.token;
    running = await serve(dir);
    expect(new URL(running.url).origin).toBe(new URL(first).origin);
    // The page left open (its cookie) is still signed in.
    expect(running.token).toBe(token);
    expect((await socketStatus(running.port, running.token)).status).toBe(101);
    // The apps' sandbox origin is the same too, so apps in the page left open still load.
    const page = await fetch(`http://127.0.0.1:${String(running.port)}/`, {
      headers: { Cookie: pageCookieHeader(token, running.port) },
    });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain(
      `frame-src http://127.0.0.1:${String(sandboxPort)}`,
    );
  });

  it('rotate-token: the old link is refused, its open sockets closed, the new one works', async () => {
    const dir = headlessDir();
    running = await serve(dir);
    const old = running.token;
    const open = await socketStatus(running.port, old);
    expect(open.status).toBe(101);
    const closed = new Promise<number>((resolve) => open.ws?.once('close', resolve));

    const printed = await rotate(dir);
    const fresh = sessionToken(dir);
    expect(fresh).not.toBe(old);
    expect(printed).not.toContain(fresh);
    const link = /http:\/\/127\.0\.0\.1:\d+\/login\?code=[\w.-]+/.exec(printed)?.[0] ?? '';
    expect(link).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${String(running.port)}/login\\?code=`));
    // The printed link signs a browser in with the new token.
    const signIn = await fetch(link, { redirect: 'manual' });
    expect(signIn.status).toBe(303);
    expect(signIn.headers.get('set-cookie')).toContain(pageCookieHeader(fresh, running.port));
    expect((await socketStatus(running.port, old)).status).toBe(401);
    expect(await closed).toBe(1008);
    const next = await socketStatus(running.port, fresh);
    expect(next.status).toBe(101);
    next.ws?.close();
  });
});
