import { request } from 'node:http';
import { networkInterfaces } from 'node:os';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { HeadlessServer } from '../../electron/headless/server.js';
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

/** Opens the IPC socket; resolves with the HTTP status of a refusal, or 101 when accepted. */
function openSocket(
  query: string,
  origin: string | undefined,
  host?: string,
): Promise<{ status: number; ws?: WebSocket }> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = {};
    if (host !== undefined) headers.Host = host;
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
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{64}$/);
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

  it('refuses the page without the token or with a wrong one', async () => {
    expect((await get('/')).status).toBe(401);
    expect((await get('/?token=nope')).status).toBe(401);
    expect((await get(`/?token=${'0'.repeat(64)}`)).status).toBe(401);
    const page = await get(`/?token=${server.token}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('MCP Host');
    expect(page.csp).toContain("script-src 'self'");
  });

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    expect(
      (await get(`/?token=${server.token}`, { Host: `evil.example:${String(server.port)}` })).status,
    ).toBe(403);
  });

  it('never serves files outside the renderer folder', async () => {
    expect((await get('/../../etc/passwd')).status).toBe(404);
    expect((await get('/%2e%2e/%2e%2e/etc/passwd')).status).toBe(404);
    expect((await get('/app.js')).status).toBe(200);
  });

  it('refuses a socket without the token', async () => {
    expect((await openSocket('', self())).status).toBe(401);
    expect((await openSocket('?token=wrong', self())).status).toBe(401);
  });

  it('refuses a socket from another Origin, or none, even with the token', async () => {
    const query = `?token=${server.token}`;
    expect((await openSocket(query, 'http://evil.example')).status).toBe(403);
    expect((await openSocket(query, 'http://127.0.0.1:1')).status).toBe(403);
    expect((await openSocket(query, undefined)).status).toBe(403);
    expect((await openSocket(query, 'null')).status).toBe(403);
  });

  it('accepts our own page, validates every frame and answers with error values', async () => {
    const { status, ws } = await openSocket(`?token=${server.token}`, self());
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
