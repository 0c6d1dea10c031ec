import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { spawnOAuthStack } from '../test/fixtures/oauth-stack-process.js';
import type { OAuthStackProcess } from '../test/fixtures/oauth-stack-process.js';
import { cancelOnAuthorizationPage, signInOnAuthorizationPage } from './flows/oauth-sign-in.js';

// The OAuth test stack's login and consent pages work in a real Chromium (the
// stand-in for the system browser in the host's sign-in specs). No app here:
// the spec is the client, with its own loopback callback.

let stack: OAuthStackProcess;
let callbacks: URL[];
let callbackServer: ReturnType<typeof createServer>;
let redirectUri: string;

test.beforeEach(async () => {
  stack = await spawnOAuthStack();
  callbacks = [];
  callbackServer = createServer((req, res) => {
    const url = new URL(req.url ?? '/', redirectUri);
    // (Chromium asks for /favicon.ico too.)
    if (url.pathname === '/callback') callbacks.push(url);
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>Callback</title><p>Back at the client.</p>');
  });
  await new Promise<void>((done) => callbackServer.listen(0, '127.0.0.1', done));
  redirectUri = `http://127.0.0.1:${String((callbackServer.address() as AddressInfo).port)}/callback`;
});

test.afterEach(async () => {
  callbackServer.close();
  await stack.stop();
});

async function authorizationUrl(): Promise<{ url: URL; state: string; verifier: string; clientId: string }> {
  const registration = await fetch(`${stack.issuer}/reg`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: [redirectUri], token_endpoint_auth_method: 'none' }),
  });
  const { client_id: clientId } = (await registration.json()) as { client_id: string };
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(8).toString('hex');
  const url = new URL(`${stack.issuer}/auth`);
  for (const [name, value] of Object.entries({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    scope: 'mcp:read offline_access',
    resource: stack.mcpUrl,
    state,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    prompt: 'consent',
  })) {
    url.searchParams.set(name, value);
  }
  return { url, state, verifier, clientId };
}

test('Chromium completes the login and consent pages, and the code buys a token the MCP server takes', async ({
  page,
}) => {
  const request = await authorizationUrl();
  await page.goto(request.url.href);
  await signInOnAuthorizationPage(page, { login: 'carol', callbackPrefix: redirectUri });
  await expect(page.getByText('Back at the client.')).toBeVisible();

  const callback = callbacks.at(-1);
  expect(callback?.searchParams.get('state')).toBe(request.state);
  expect(callback?.searchParams.get('iss')).toBe(stack.issuer);
  const token = await fetch(`${stack.issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: callback?.searchParams.get('code') ?? '',
      code_verifier: request.verifier,
      redirect_uri: redirectUri,
      client_id: request.clientId,
    }),
  });
  const tokens = (await token.json()) as { access_token: string; refresh_token?: string };
  expect(tokens.refresh_token).toBeTruthy();
  const whoami = await fetch(stack.mcpUrl, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${tokens.access_token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'whoami', arguments: {} },
    }),
  });
  expect(await whoami.text()).toContain('\\"sub\\":\\"carol\\"');
});

test('Cancel on the login page goes back to the client with access_denied', async ({ page }) => {
  const request = await authorizationUrl();
  await page.goto(request.url.href);
  await cancelOnAuthorizationPage(page);
  await page.waitForURL((url) => url.href.startsWith(redirectUri));
  expect(callbacks.at(-1)?.searchParams.get('error')).toBe('access_denied');
});
