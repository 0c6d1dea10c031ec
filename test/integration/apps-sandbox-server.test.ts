import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { HeadlessServer } from '../../electron/headless/server.js';
import { createTestHost } from '../helpers/host.js';
import type { TestHost } from '../helpers/host.js';
import { serveHeadless } from '../helpers/headless-server.js';

/** The headless shell's second loopback origin, which serves only the MCP Apps sandbox proxy. */
let t: TestHost;
let server: HeadlessServer;
let sandboxPort = 0;

function get(
  port: number,
  path: string,
  options: { method?: string; host?: string } = {},
): Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? 'GET',
        headers: options.host !== undefined ? { Host: options.host } : {},
      },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, body, headers: res.headers });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  t = await createTestHost();
  server = await serveHeadless(t.host, { 'index.html': '<!doctype html><title>MCP Host</title>' });
  const page = await get(server.port, `/?token=${server.token}`);
  const frameSrc = /frame-src http:\/\/127\.0\.0\.1:(\d+)/.exec(
    String(page.headers['content-security-policy']),
  );
  sandboxPort = Number(frameSrc?.[1]);
});
afterAll(async () => {
  await server.close();
  await t.dispose();
});

describe('the apps sandbox origin of the headless shell', () => {
  it('is another port, the only origin the page may frame', () => {
    expect(sandboxPort).toBeGreaterThan(0);
    expect(sandboxPort).not.toBe(server.port);
  });

  it('turns DNS prefetching off on every answer and serves an empty first page for app frames', async () => {
    for (const path of ['/proxy.js', '/blank', '/view/unknown-view-id-000000000']) {
      const answer = await get(sandboxPort, path);
      expect(answer.headers['x-dns-prefetch-control'], path).toBe('off');
    }
    const blank = await get(sandboxPort, '/blank');
    expect(blank.status).toBe(200);
    expect(blank.headers['content-security-policy']).toBe("default-src 'none'");
    expect(blank.body).not.toContain('<script');
    // The proxy builds the app's document with the prefetch switch off and WebRTC removed first.
    const script = await get(sandboxPort, '/proxy.js');
    expect(script.body).toContain('x-dns-prefetch-control');
    expect(script.body).toContain('RTCPeerConnection');
  });

  it('serves the proxy script and nothing of the shell: no page, no token, no socket', async () => {
    const script = await get(sandboxPort, '/proxy.js');
    expect(script.status).toBe(200);
    expect(script.headers['x-content-type-options']).toBe('nosniff');
    for (const path of [
      '/',
      `/?token=${server.token}`,
      '/index.html',
      '/app.js',
      '/ipc',
      '/view/unknown-view-id-000000000',
    ]) {
      const answer = await get(sandboxPort, path);
      expect(answer.status, path).toBe(404);
      expect(answer.body).not.toContain('MCP Host');
    }
    const report = await get(sandboxPort, '/csp-report/AAAAAAAAAAAAAAAAAAAAAAAA', { method: 'POST' });
    expect(report.status).toBe(404);
    const upgrade = await new Promise<string>((resolve) => {
      const ws = new WebSocket(`ws://127.0.0.1:${String(sandboxPort)}/ipc?token=${server.token}`);
      ws.on('open', () => {
        resolve('open');
        ws.close();
      });
      ws.on('error', () => {
        resolve('refused');
      });
    });
    expect(upgrade).toBe('refused');
  });

  it('answers only on its own loopback Host (no DNS rebinding)', async () => {
    const rebound = await get(sandboxPort, '/proxy.js', { host: `evil.example:${String(sandboxPort)}` });
    expect(rebound.status).toBe(403);
  });
});
