import { afterEach, describe, expect, it } from 'vitest';
import type { ServerConnection } from '../../electron/host/servers/server-connection.js';
import type { ConnectionOptions } from '../../electron/host/servers/server-connection.js';
import type { HttpServerConfig } from '../../shared/model/config.js';
import type { ToolCallResult } from '../../shared/model/server.js';
import { openConnection, stopConnections } from '../helpers/connection.js';
import { freePort, startEverythingHttp, startHttpFixture } from '../helpers/http-servers.js';
import type { HttpFixture, HttpServerProcess } from '../helpers/http-servers.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await stopConnections();
  for (const step of cleanup.splice(0).reverse()) await step();
});

const connection = (config: HttpServerConfig, options: Partial<ConnectionOptions> = {}): ServerConnection =>
  openConnection(config, options, 'remote').connection;

async function fixture(): Promise<HttpFixture> {
  const f = await startHttpFixture();
  cleanup.push(() => f.stop());
  return f;
}

async function everything(mode: 'sse' | 'streamableHttp'): Promise<HttpServerProcess> {
  const server = await startEverythingHttp(mode);
  cleanup.push(() => server.stop());
  return server;
}

function text(result: ToolCallResult): string {
  const block = result.content[0];
  return block?.type === 'text' ? block.text : '';
}

describe('remote servers over Streamable HTTP', () => {
  it('connects to server-everything (streamableHttp), shows the transport and era, calls a tool', async () => {
    const server = await everything('streamableHttp');
    const c = connection({ url: `${server.origin}/mcp` });
    const snapshot = await c.start();
    expect(snapshot.error).toBeUndefined();
    expect(snapshot).toMatchObject({
      status: 'connected',
      transport: 'http',
      httpTransport: 'streamable-http',
    });
    expect(snapshot.era).toBe('legacy');
    expect(snapshot.protocolVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(snapshot.serverInfo?.name).toBe('mcp-servers/everything');
    expect(snapshot.counts.tools).toBeGreaterThan(0);
    const result = await c.callTool('echo', '{"message":"over http"}');
    expect(text(result)).toBe('Echo: over http');
  });

  it('keeps the session id, sends the protocol-version header, and DELETEs the session on stop', async () => {
    const f = await fixture();
    const c = connection({ url: `${f.origin}/mcp` });
    const snapshot = await c.start();
    expect(snapshot.status).toBe('connected');
    expect(text(await c.callTool('echo', '{"text":"hi"}'))).toBe('hi');
    await c.stop();

    const log = (await f.requests()).filter((r) => r.path === '/mcp');
    const initIndex = log.findIndex((r) => (r.body as { method?: string } | null)?.method === 'initialize');
    expect(initIndex).toBeGreaterThanOrEqual(0);
    expect(log[initIndex]?.headers['mcp-session-id']).toBeUndefined();
    const afterInit = log.slice(initIndex + 1);
    const sessionIds = new Set(afterInit.map((r) => r.headers['mcp-session-id']));
    expect(sessionIds.size).toBe(1);
    const [sessionId] = [...sessionIds];
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(afterInit.map((r) => r.headers['mcp-protocol-version']))).toEqual(
      new Set([snapshot.protocolVersion]),
    );
    const last = log.at(-1);
    expect(last?.method).toBe('DELETE');
    expect(last?.headers['mcp-session-id']).toBe(sessionId);
  });

  it('sends the configured headers, with ${env:NAME} expanded, on every request', async () => {
    const f = await fixture();
    const c = connection(
      {
        url: `${f.origin}/mcp`,
        headers: { 'X-Api-Key': '${env:FIXTURE_KEY}', Authorization: 'Bearer ${env:FIXTURE_TOKEN}' },
      },
      {
        environment: () =>
          Promise.resolve({ all: { FIXTURE_KEY: 'key-123', FIXTURE_TOKEN: 'token-456' }, source: 'fixed' }),
      },
    );
    expect((await c.start()).status).toBe('connected');
    expect(JSON.parse(text(await c.callTool('headers', '{}')))).toEqual({
      'x-api-key': 'key-123',
      authorization: 'Bearer token-456',
    });
    const log = (await f.requests()).filter((r) => r.path === '/mcp');
    expect(log.length).toBeGreaterThan(2);
    for (const request of log) expect(request.headers['x-api-key']).toBe('key-123');
  });

  it('refuses to connect when a header refers to an unset variable, naming it', async () => {
    const f = await fixture();
    const c = connection({ url: `${f.origin}/mcp`, headers: { 'X-Api-Key': '${env:NOT_SET_ANYWHERE}' } });
    const snapshot = await c.start();
    expect(snapshot.status).toBe('failed');
    expect(snapshot.error).toBe(
      'Server "remote" header X-Api-Key uses ${env:NOT_SET_ANYWHERE}, but NOT_SET_ANYWHERE is not set',
    );
    expect(await f.requests()).toEqual([]);
  });

  it("resumes a dropped SSE stream with Last-Event-ID after the server's retry interval", async () => {
    const f = await fixture();
    // Our own backoff is set to ten minutes: only honouring the server's
    // `retry: 50` lets the call finish within the test's time limit.
    const c = connection(
      { url: `${f.origin}/mcp` },
      {
        httpReconnection: {
          initialReconnectionDelay: 600_000,
          maxReconnectionDelay: 600_000,
          reconnectionDelayGrowFactor: 1,
          maxRetries: 2,
        },
      },
    );
    expect((await c.start()).status).toBe('connected');
    expect(text(await c.callTool('resumable', '{}'))).toBe('resumed after reconnect');
    const log = await f.requests();
    const resume = log.find((r) => r.method === 'GET' && r.headers['last-event-id'] !== undefined);
    expect(resume?.headers['last-event-id']).toMatch(/^resume-/);
    expect(resume?.headers['mcp-session-id']).toBeDefined();
  });

  it('accepts a JSON-RPC batch from a 2025-03-26 server', async () => {
    const f = await fixture();
    const c = connection({ url: `${f.origin}/mcp-2025-03-26` });
    const snapshot = await c.start();
    expect(snapshot.protocolVersion).toBe('2025-03-26');
    expect(text(await c.callTool('batch', '{}'))).toBe('answered in a batch');
  });

  it('says clearly when nothing listens at the URL', async () => {
    const port = await freePort();
    const c = connection({ url: `http://127.0.0.1:${String(port)}/mcp` });
    const snapshot = await c.start();
    expect(snapshot.status).toBe('failed');
    expect(snapshot.error).toBe(
      `Cannot reach Server "remote" (http://127.0.0.1:${String(port)}/mcp): connection refused`,
    );
  });
});

describe('fallback to the legacy HTTP+SSE transport', () => {
  it('falls back when the POST answers 404 (server-everything in sse mode)', async () => {
    const server = await everything('sse');
    const c = connection({ url: `${server.origin}/sse` });
    const snapshot = await c.start();
    expect(snapshot.error).toBeUndefined();
    expect(snapshot).toMatchObject({ status: 'connected', httpTransport: 'sse', era: 'legacy' });
    expect(text(await c.callTool('echo', '{"message":"via sse"}'))).toBe('Echo: via sse');
  });

  it('falls back when the POST answers 405, and sends the headers on the SSE stream too', async () => {
    const f = await fixture();
    const c = connection(
      { url: `${f.origin}/legacy-sse`, headers: { 'X-Api-Key': 'sse-key' } },
      { environment: () => Promise.resolve({ all: {}, source: 'fixed' }) },
    );
    const snapshot = await c.start();
    expect(snapshot).toMatchObject({ status: 'connected', httpTransport: 'sse' });
    expect(text(await c.callTool('echo', '{"text":"fallback"}'))).toBe('fallback');
    const log = await f.requests();
    expect(log[0]).toMatchObject({ method: 'POST', path: '/legacy-sse' });
    const stream = log.find((r) => r.method === 'GET' && r.path === '/legacy-sse');
    expect(stream?.headers['x-api-key']).toBe('sse-key');
    expect(log.filter((r) => r.path === '/legacy-sse/messages').length).toBeGreaterThan(0);
  });

  it('goes straight to HTTP+SSE when the entry says "type": "sse"', async () => {
    const f = await fixture();
    const c = connection({ url: `${f.origin}/legacy-sse`, type: 'sse' });
    expect((await c.start()).httpTransport).toBe('sse');
    const log = await f.requests();
    expect(log.filter((r) => r.method === 'POST' && r.path === '/legacy-sse')).toEqual([]);
  });

  it('does not fall back on other failures (a 500 is reported as it is)', async () => {
    const f = await fixture();
    const c = connection({ url: `${f.origin}/nothing-here` });
    const snapshot = await c.start();
    // /nothing-here answers 404 to POST and to GET: fallback tried, then reported.
    expect(snapshot.status).toBe('failed');
    expect(snapshot.error).toMatch(
      /^Server "remote" \(http:\/\/127\.0\.0\.1:\d+\/nothing-here\): .*\(tried Streamable HTTP, then HTTP\+SSE\)$/,
    );
  });
});
