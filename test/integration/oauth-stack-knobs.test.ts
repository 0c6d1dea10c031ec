/**
 * The OAuth test stack's misbehaviour knobs (test/helpers/oauth-stack.ts) do
 * what they say, so the host's bad-input tests can rely on them.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { discoverAuthorizationServerMetadata, startAuthorization } from '@modelcontextprotocol/client';
import { clientCredentialsToken, pingMcp, startOAuthStack } from '../helpers/oauth-stack.js';
import type { OAuthStack, StackClient } from '../helpers/oauth-stack.js';

let s: OAuthStack;
beforeAll(async () => {
  s = await startOAuthStack();
});
afterEach(async () => {
  await s.reset();
});
afterAll(async () => {
  await s.close();
});

/** A client-credentials token request of the `machine` client. */
function machineToken(scope = 'mcp:read', resource = s.mcpUrl): Promise<Response> {
  return clientCredentialsToken({ issuer: s.issuer, client: s.clients.machine, resource, scope });
}

async function accessToken(scope?: string): Promise<string> {
  const response = await machineToken(scope);
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

function callTool(token: string, name: string): Promise<Response> {
  return fetch(s.mcpUrl, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: {} } }),
  });
}

/** An authorization URL of a freshly registered public client, as the SDK builds it. */
async function authorizationRequest(redirectUrl = 'http://127.0.0.1:42001/callback', scope = 'mcp:read') {
  const metadata = await discoverAuthorizationServerMetadata(s.issuer);
  // Dynamic registration by hand: the SDK's registerClient is deprecated (CIMD is preferred from 2026-07-28).
  const registration = await fetch(`${s.issuer}/reg`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      redirect_uris: [redirectUrl],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      scope,
    }),
  });
  expect(registration.status).toBe(201);
  const clientInformation = (await registration.json()) as { client_id: string; redirect_uris: string[] };
  const state = `state-${String(Math.random()).slice(2)}`;
  const { authorizationUrl } = await startAuthorization(s.issuer, {
    metadata,
    clientInformation,
    redirectUrl,
    scope,
    state,
    resource: new URL(s.mcpUrl),
  });
  return { authorizationUrl, state };
}

describe('authorization server metadata', () => {
  it.each(['oauthMetadata', 'openidMetadata'] as const)(
    '%s: missing, malformed, wrong shape, wrong issuer',
    async (knob) => {
      const path = knob === 'oauthMetadata' ? 'oauth-authorization-server' : 'openid-configuration';
      const get = () => fetch(`${s.issuer}/.well-known/${path}`);
      expect(((await (await get()).json()) as { issuer: string }).issuer).toBe(s.issuer);

      await s.set({ [knob]: 'missing' });
      expect((await get()).status).toBe(404);
      await s.set({ [knob]: 'malformed' });
      await expect((await get()).json()).rejects.toThrow(SyntaxError);
      await s.set({ [knob]: 'wrong-shape' });
      expect(((await (await get()).json()) as { issuer: unknown }).issuer).toBe(42);
      await s.set({ [knob]: 'wrong-issuer' });
      const wrong = (await (await get()).json()) as { issuer: string; token_endpoint: string };
      expect(wrong.issuer).not.toBe(s.issuer);
      expect(wrong.token_endpoint).toBe(`${s.issuer}/token`);
    },
  );

  it('the SDK finds the server through OIDC discovery when RFC 8414 is missing, and refuses a wrong issuer', async () => {
    await s.set({ oauthMetadata: 'missing' });
    expect((await discoverAuthorizationServerMetadata(s.issuer))?.issuer).toBe(s.issuer);
    await s.set({ oauthMetadata: 'wrong-issuer', openidMetadata: 'wrong-issuer' });
    await expect(discoverAuthorizationServerMetadata(s.issuer)).rejects.toThrow();
  });

  it('an unreachable authorization server refuses connections, and comes back on the same port', async () => {
    const url = `${s.issuer}/.well-known/oauth-authorization-server`;
    await s.set({ authorizationServerReachable: false });
    await expect(fetch(url)).rejects.toThrow();
    await s.set({ authorizationServerReachable: true });
    expect((await fetch(url)).status).toBe(200);
  });
});

describe('protected-resource metadata and challenges', () => {
  it('prm: missing, malformed, wrong shape, foreign resource; authorizationServers overrides the list', async () => {
    const get = () => fetch(s.resourceMetadataUrl);
    expect(await (await get()).json()).toMatchObject({
      resource: s.mcpUrl,
      authorization_servers: [s.issuer],
    });
    expect((await fetch(new URL('/.well-known/oauth-protected-resource', s.mcpUrl))).status).toBe(200);
    await s.set({ prm: 'missing' });
    expect((await get()).status).toBe(404);
    await s.set({ prm: 'malformed' });
    await expect((await get()).json()).rejects.toThrow(SyntaxError);
    await s.set({ prm: 'wrong-shape' });
    expect(await (await get()).json()).toMatchObject({ authorization_servers: 'not-a-list' });
    await s.set({ prm: 'foreign-resource' });
    expect(((await (await get()).json()) as { resource: string }).resource).not.toBe(s.mcpUrl);
    await s.set({ prm: 'ok', authorizationServers: ['http://127.0.0.1:9/gone'] });
    expect(await (await get()).json()).toMatchObject({ authorization_servers: ['http://127.0.0.1:9/gone'] });
  });

  it('the 401 challenge names the metadata, optionally a scope, or neither', async () => {
    const challenge = async () =>
      (await fetch(s.mcpUrl, { method: 'POST' })).headers.get('www-authenticate') ?? '';
    expect(await challenge()).toContain(`resource_metadata="${s.resourceMetadataUrl}"`);
    expect(await challenge()).not.toContain('scope=');
    await s.set({ challengeScope: 'mcp:read offline_access', prmInChallenge: false });
    expect(await challenge()).toContain('scope="mcp:read offline_access"');
    expect(await challenge()).not.toContain('resource_metadata');
  });

  it('stepUp forever: 403 insufficient_scope even with the scope', async () => {
    const token = await accessToken('mcp:read mcp:admin');
    expect((await callTool(token, 'admin-action')).status).toBe(200);
    await s.set({ stepUp: 'forever' });
    const refused = await callTool(token, 'admin-action');
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    expect(refused.headers.get('www-authenticate')).toContain('scope="mcp:read mcp:admin"');
  });

  it('accessTokenTtl sets the lifetime; expireAccessTokens refuses what was issued', async () => {
    await s.set({ accessTokenTtl: 7 });
    const response = await machineToken();
    const { access_token: token, expires_in: expiresIn } = (await response.json()) as {
      access_token: string;
      expires_in: number;
    };
    expect(expiresIn).toBe(7);
    expect((await callTool(token, 'whoami')).status).toBe(200);
    s.expireAccessTokens();
    const refused = await callTool(token, 'whoami');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });
});

describe('token endpoint', () => {
  it('answers 500 or invalid_grant, for every grant or only the chosen one', async () => {
    await s.set({ tokenFailure: 'server-error' });
    const failed = await machineToken();
    expect(failed.status).toBe(500);
    expect(failed.headers.get('content-type')).toContain('text/html');
    await s.set({ tokenFailure: 'invalid-grant' });
    const invalid = await machineToken();
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ error: 'invalid_grant' });
    await s.set({ tokenFailureGrantType: 'refresh_token' });
    expect((await machineToken()).status).toBe(200);
    expect(s.events.authorizationServer.filter((e) => e.event === 'grant.sabotaged')).toHaveLength(2);
  });
});

describe('authorization response', () => {
  it('comes back with state and iss, or tampered as asked', async () => {
    const plain = await authorizationRequest();
    const callback = await s.completeSignIn(plain.authorizationUrl);
    expect(callback.searchParams.get('state')).toBe(plain.state);
    expect(callback.searchParams.get('iss')).toBe(s.issuer);
    expect(callback.searchParams.get('code')).toBeTruthy();

    const tampered = async (mode: Parameters<OAuthStack['set']>[0]['authorizationResponse']) => {
      await s.set({ authorizationResponse: mode });
      const request = await authorizationRequest();
      return { request, callback: await s.completeSignIn(request.authorizationUrl) };
    };
    const mismatch = await tampered('state-mismatch');
    expect(mismatch.callback.searchParams.get('state')).not.toBe(mismatch.request.state);
    expect((await tampered('state-missing')).callback.searchParams.has('state')).toBe(false);
    expect((await tampered('foreign-iss')).callback.searchParams.get('iss')).toBe('https://attacker.example');
    expect((await tampered('iss-missing')).callback.searchParams.has('iss')).toBe(false);
    const foreign = (await tampered('foreign-redirect')).callback;
    expect(foreign.origin).toBe('https://attacker.example');
    expect(foreign.searchParams.get('code')).toBeTruthy();
  });

  it('Cancel on the login page comes back as access_denied', async () => {
    const { authorizationUrl, state } = await authorizationRequest();
    const callback = await s.completeSignIn(authorizationUrl, { deny: true });
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('state')).toBe(state);
  });

  it('a registered loopback redirect matches any port; other hosts or paths do not', async () => {
    const { authorizationUrl } = await authorizationRequest('http://127.0.0.1:42002/callback');
    const moved = new URL(authorizationUrl);
    moved.searchParams.set('redirect_uri', 'http://127.0.0.1:42999/callback');
    expect((await s.completeSignIn(moved)).port).toBe('42999');
    moved.searchParams.set('redirect_uri', 'http://127.0.0.1:42999/elsewhere');
    await expect(s.completeSignIn(moved)).rejects.toThrow(/redirect_uri/);
  });

  it('enforceRegisteredScope: a scope beyond the registered one is invalid_scope', async () => {
    await s.set({ enforceRegisteredScope: true });
    const { authorizationUrl } = await authorizationRequest('http://127.0.0.1:42003/callback', 'mcp:read');
    const wider = new URL(authorizationUrl);
    wider.searchParams.set('scope', 'mcp:read mcp:admin');
    expect((await s.completeSignIn(wider)).searchParams.get('error')).toBe('invalid_scope');
  });
});

describe('client metadata documents', () => {
  it('advertised only when on; an unpublished or malformed document is an invalid client', async () => {
    const discovery = async () =>
      (
        (await (await fetch(`${s.issuer}/.well-known/oauth-authorization-server`)).json()) as Record<
          string,
          unknown
        >
      ).client_id_metadata_document_supported;
    expect(await discovery()).toBeUndefined();
    await s.set({ clientIdMetadataDocument: 'on' });
    expect(await discovery()).toBe(true);

    const url = 'https://client.example/metadata.json';
    const authorize = async () => {
      const request = new URL(`${s.issuer}/auth`);
      for (const [name, value] of Object.entries({
        client_id: url,
        response_type: 'code',
        redirect_uri: 'http://127.0.0.1:42004/callback',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
        scope: 'mcp:read',
      })) {
        request.searchParams.set(name, value);
      }
      return s.completeSignIn(request);
    };
    await expect(authorize()).rejects.toThrow(/invalid_client/);
    s.publishClientMetadata(url, '{"client_id": ');
    await expect(authorize()).rejects.toThrow(/invalid_client/);
    s.publishClientMetadata(url, {
      client_id: url,
      redirect_uris: ['http://127.0.0.1:42004/callback'],
      token_endpoint_auth_method: 'none',
    });
    expect((await authorize()).searchParams.get('code')).toBeTruthy();
    s.publishClientMetadata(url, undefined);
  });
});

describe('a changed authorization server', () => {
  it('tokens of the old one are refused, the metadata names the new one, its tokens work', async () => {
    const stack = await startOAuthStack();
    try {
      const old = stack.issuer;
      const token = async (issuer: string) => {
        const response = await clientCredentialsToken({
          issuer,
          client: stack.clients.machine,
          resource: stack.mcpUrl,
          scope: 'mcp:read',
        });
        return ((await response.json()) as { access_token: string }).access_token;
      };
      const oldToken = await token(old);
      const { issuer } = await stack.switchAuthorizationServer();
      expect(issuer).not.toBe(old);
      expect(stack.issuer).toBe(issuer);
      expect(await (await fetch(stack.resourceMetadataUrl)).json()).toMatchObject({
        authorization_servers: [issuer],
      });
      expect((await pingMcp(stack.mcpUrl, oldToken)).status).toBe(401);
      const fresh = await token(issuer);
      expect((await pingMcp(stack.mcpUrl, fresh)).status).toBe(200);
    } finally {
      await stack.close();
    }
  });
});

describe('as a process (node test/fixtures/oauth/stack.mjs)', () => {
  it('prints its URLs and obeys the control URL', async () => {
    const child = spawn(
      process.execPath,
      ['test/fixtures/oauth/stack.mjs', JSON.stringify({ accessTokenTtl: 30 })],
      {
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).once('line', resolve);
        child.once('exit', (code) => {
          reject(new Error(`stack.mjs exited with ${String(code)}`));
        });
      });
      const info = JSON.parse(line) as {
        mcpUrl: string;
        issuer: string;
        control: string;
        clients: { machine: StackClient };
      };
      const control = async (body: unknown) =>
        (await (await fetch(info.control, { method: 'POST', body: JSON.stringify(body) })).json()) as {
          ok: boolean;
          result: unknown;
        };
      expect(await control({ action: 'set', knobs: { oauthMetadata: 'missing' } })).toMatchObject({
        ok: true,
      });
      expect((await fetch(`${info.issuer}/.well-known/oauth-authorization-server`)).status).toBe(404);
      expect(await control({ action: 'revokeRefreshTokens' })).toEqual({ ok: true, result: 0 });
      expect(await control({ action: 'nonsense' })).toMatchObject({ ok: false });
      const token = await clientCredentialsToken({
        issuer: info.issuer,
        client: info.clients.machine,
        resource: info.mcpUrl,
        scope: 'mcp:read',
      });
      expect(((await token.json()) as { expires_in: number }).expires_in).toBe(30);
    } finally {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
  });
});
