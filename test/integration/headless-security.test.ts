import { request } from 'node:http';
import { networkInterfaces } from 'node:os';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { HeadlessServer } from '../../electron/headless/server.js';
import { pageCookieHeader } from '../../electron/headless/proofs.js';
import { createTestHost } from '../helpers/host.js';
import type { TestHost } from '../helpers/host.js';
import { serveHeadless } from '../helpers/headless-server.js';

let t: TestHost;
let server: HeadlessServer;

beforeAll(async () => {
  t = await createTestHost();
  server = await serveHeadless(t.host, {
    'index.html': '<!doctype html><title>MCP Host</title>',
    'app.js': 'console.log(1)',
  });
});
afterAll(async () => {
  await server.close();
  await t.dispose();
});

function get(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; csp: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body, csp: String(res.headers['content-security-policy']) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** The page's cookie, as the browser sends it after signing in. */
const cookie = () => pageCookieHeader(server.token, server.port);

/** Opens the IPC socket (with `Cookie: cookie` when given); the HTTP status of a refusal, or 101. */
function openSocket(
  query: string,
  origin: string | undefined,
  host?: string,
  withCookie?: string,
): Promise<{ status: number; ws?: WebSocket }> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = {};
    if (host !== undefined) headers.Host = host;
    if (withCookie !== undefined) headers.Cookie = withCookie;
    const ws = new WebSocket(`ws://127.0.0.1:${String(server.port)}/ipc${query}`, {
      ...(origin !== undefined ? { origin } : {}),
      headers,
    });
    ws.on('open', () => {
      resolve({ status: 101, ws });
    });
    ws.on('unexpected-response', (_req, res) => {
      resolve({ status: res.statusCode ?? 0 });
    });
    ws.on('error', () => {
      resolve({ status: -1 });
    });
  });
}

const self = () => `http://127.0.0.1:${String(server.port)}`;

describe('headless shell security', () => {
  it('listens on 127.0.0.1 only', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/login\?code=[\w.-]+$/);
    const external = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && i.family === 'IPv4' && !i.internal);
    if (external) {
      const reached = await new Promise<boolean>((resolve) => {
        const socket = connect({ host: external.address, port: server.port }, () => {
          socket.destroy();
          resolve(true);
        });
        socket.on('error', () => {
          resolve(false);
        });
      });
      expect(reached).toBe(false);
    }
  });

  it('refuses the page without its cookie or with a wrong one, and never takes the token in a URL', async () => {
    expect((await get('/')).status).toBe(401);
    expect((await get('/?token=nope')).status).toBe(401);
    expect((await get(`/?token=${server.token}`)).status).toBe(401);
    expect((await get('/', { Cookie: `mcp-host-${String(server.port)}=nope` })).status).toBe(401);
    expect((await get('/', { Cookie: pageCookieHeader(server.token, server.port + 1) })).status).toBe(401);
    const page = await get('/', { Cookie: cookie() });
    expect(page.status).toBe(200);
    expect(page.body).toContain('MCP Host');
    expect(page.csp).toContain("script-src 'self'");
  });

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    expect((await get('/', { Host: `evil.example:${String(server.port)}`, Cookie: cookie() })).status).toBe(
      403,
    );
  });

  it('never serves files outside the renderer folder', async () => {
    expect((await get('/../../etc/passwd')).status).toBe(404);
    expect((await get('/%2e%2e/%2e%2e/etc/passwd')).status).toBe(404);
    expect((await get('/app.js')).status).toBe(200);
  });

  it('refuses a socket without the cookie (the token in its URL does not count)', async () => {
    expect((await openSocket('', self())).status).toBe(401);
    expect((await openSocket('?token=wrong', self())).status).toBe(401);
    expect((await openSocket(`?token=${server.token}`, self())).status).toBe(401);
    expect((await openSocket('', self(), undefined, `mcp-host-${String(server.port)}=wrong`)).status).toBe(
      401,
    );
  });

  it('refuses a socket from another Origin, or none, even with the cookie', async () => {
    expect((await openSocket('', 'http://evil.example', undefined, cookie())).status).toBe(403);
    expect((await openSocket('', 'http://127.0.0.1:1', undefined, cookie())).status).toBe(403);
    expect((await openSocket('', undefined, undefined, cookie())).status).toBe(403);
    expect((await openSocket('', 'null', undefined, cookie())).status).toBe(403);
  });

  it('accepts our own page, validates every frame and answers with error values', async () => {
    const { status, ws } = await openSocket('', self(), undefined, cookie());
    expect(status).toBe(101);
    if (!ws) return;
    const replies: unknown[] = [];
    ws.on('message', (data: Buffer) => replies.push(JSON.parse(data.toString())));
    ws.send(JSON.stringify({ id: 1, method: 'listServers', params: {} }));
    ws.send(
      JSON.stringify({
        id: 2,
        method: 'saveServer',
        params: { input: { transport: 'stdio', name: '../x', command: 'sh' } },
      }),
    );
    ws.send(JSON.stringify({ id: 3, method: 'eval', params: {} }));
    await expect.poll(() => replies.length).toBe(3);
    expect(replies).toContainEqual({ id: 1, result: { ok: true, value: [] } });
    expect(replies).toContainEqual({
      id: 2,
      result: { ok: false, error: expect.objectContaining({ code: 'invalid_params' }) },
    });
    expect(replies).toContainEqual({
      id: 3,
      result: { ok: false, error: expect.objectContaining({ code: 'invalid_params' }) },
    });

    const closed = new Promise<number>((resolve) => {
      ws.on('close', (code) => {
        resolve(code);
      });
    });
    ws.send(JSON.stringify({ method: 'listServers', params: {}, sneaky: true }));
    expect(await closed).toBe(1008);
  });
});
