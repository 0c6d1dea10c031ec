import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { HeadlessServer } from '../../electron/headless/server.js';
import { LOGIN_CODE_TTL_MS, mintLoginCode, pageCookieHeader } from '../../electron/headless/proofs.js';
import { createTestHost } from '../helpers/host.js';
import type { TestHost } from '../helpers/host.js';
import { serveHeadless } from '../helpers/headless-server.js';

/** The page's sign-in: a single-use code in the link, exchanged for an HttpOnly cookie. */

let t: TestHost;
let server: HeadlessServer;

beforeAll(async () => {
  t = await createTestHost();
  server = await serveHeadless(t.host, { 'index.html': '<!doctype html><title>MCP Host</title>' });
});
afterAll(async () => {
  await server.close();
  await t.dispose();
});

const open = (url: string, cookie?: string) =>
  fetch(url, { redirect: 'manual', headers: cookie !== undefined ? { Cookie: cookie } : {} });

/** The `name=value` part of a Set-Cookie header. */
const cookiePair = (setCookie: string | null) => (setCookie ?? '').split(';')[0] ?? '';

function socketStatus(cookie: string | undefined): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${String(server.port)}/ipc`, {
      origin: `http://127.0.0.1:${String(server.port)}`,
      headers: cookie !== undefined ? { Cookie: cookie } : {},
    });
    ws.once('open', () => {
      ws.close();
      resolve(101);
    });
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
    });
    ws.once('error', () => {
      resolve(-1);
    });
  });
}

const loginAt = (code: string) => `http://127.0.0.1:${String(server.port)}/login?code=${code}`;

describe('headless sign-in link', () => {
  it('is exchanged once for an HttpOnly, SameSite=Strict, Path=/ cookie and a redirect to a token-free address', async () => {
    const link = server.url;
    expect(link).not.toContain(server.token);
    const first = await open(link);
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/');
    const setCookie = first.headers.get('set-cookie') ?? '';
    const attributes = setCookie.split(';').map((a) => a.trim().toLowerCase());
    expect(attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=strict', 'path=/']));
    expect(setCookie).not.toContain(server.token);
    const cookie = cookiePair(setCookie);
    expect(cookie).toBe(pageCookieHeader(server.token, server.port));

    // The cookie opens the page and the socket.
    const page = await open(`http://127.0.0.1:${String(server.port)}/`, cookie);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('MCP Host');
    expect(await socketStatus(cookie)).toBe(101);
    expect(await socketStatus(undefined)).toBe(401);

    // The same link again, as a bookmark or a shared copy would: it signs nobody in.
    const reused = await open(link);
    expect(reused.status).toBe(401);
    expect(reused.headers.get('set-cookie')).toBeNull();
    expect(await reused.text()).toMatch(/^This sign-in link was already used or has expired\./);
    // A browser that is already signed in just goes on to the page.
    const again = await open(link, cookie);
    expect(again.status).toBe(303);
    expect(again.headers.get('set-cookie')).toBeNull();
  });

  it('refuses forged, expired and pre-start codes, and the bare token', async () => {
    const forged = mintLoginCode('f'.repeat(64));
    expect((await open(loginAt(forged))).status).toBe(401);
    const expired = mintLoginCode(server.token, Date.now() - LOGIN_CODE_TTL_MS - 1000);
    expect((await open(loginAt(expired))).status).toBe(401);
    // Made before this shell started (its record of used codes starts empty).
    const older = mintLoginCode(server.token, Date.now() - 60_000);
    expect((await open(loginAt(older))).status).toBe(401);
    expect((await open(loginAt(server.token))).status).toBe(401);
    expect((await open(`http://127.0.0.1:${String(server.port)}/?token=${server.token}`)).status).toBe(401);
    // Each printed link is its own single-use code.
    expect(server.url).not.toBe(server.url);
    expect((await open(loginAt(mintLoginCode(server.token)))).status).toBe(303);
  });
});
