/**
 * Proves the OAuth test stack (test/helpers/oauth-stack.ts) with the bare SDK
 * client: the fixture, not the host. A minimal in-memory OAuth client provider
 * stands in for the host's.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Client,
  ClientCredentialsProvider,
  DpopSession,
  IssuerMismatchError,
  PrivateKeyJwtProvider,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  discoverAuthorizationServerMetadata,
  refreshAuthorization,
} from '@modelcontextprotocol/client';
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { clientCredentialsToken, pingMcp, startOAuthStack } from '../helpers/oauth-stack.js';
import type { OAuthStack, OAuthStackOptions } from '../helpers/oauth-stack.js';

/** Everything in memory; the redirect URI's port may change between sign-ins (loopback, RFC 8252). */
class MemoryProvider implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  expectedState = '';
  info: StoredOAuthClientInformation | undefined;
  saved: StoredOAuthTokens | undefined;
  private verifier = '';

  /** Set: tokens are DPoP-bound to this session's key. */
  dpopSession: DpopSession | undefined;

  dpop(): DpopSession | undefined {
    return this.dpopSession;
  }

  /** A Client ID Metadata Document URL: used instead of registration where the AS supports it. */
  clientMetadataUrl: string | undefined;

  constructor(public redirect: string) {}

  get redirectUrl(): string {
    return this.redirect;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'oauth-stack proof',
      redirect_uris: [this.redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  state(): string {
    this.expectedState = randomUUID();
    return this.expectedState;
  }

  clientInformation(): StoredOAuthClientInformation | undefined {
    return this.info;
  }

  saveClientInformation(info: StoredOAuthClientInformation): void {
    this.info = info;
  }

  tokens(): StoredOAuthTokens | undefined {
    return this.saved;
  }

  saveTokens(tokens: StoredOAuthTokens): void {
    this.saved = tokens;
  }

  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    return this.verifier;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'tokens') this.saved = undefined;
    if (scope === 'all' || scope === 'client') this.info = undefined;
  }
}

let stack: OAuthStack | undefined;
const clients: Client[] = [];

async function open(options: OAuthStackOptions = {}): Promise<OAuthStack> {
  stack = await startOAuthStack(options);
  return stack;
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await stack?.close();
  stack = undefined;
});

async function connect(s: OAuthStack, provider: OAuthClientProvider): Promise<Client> {
  const client = new Client({ name: 'oauth-stack-proof', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(s.mcpUrl), { authProvider: provider }));
  clients.push(client);
  return client;
}

/** 401 → discovery → registration → sign-in → code exchange → connected. */
async function signIn(s: OAuthStack, provider: MemoryProvider, login = 'alice'): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(s.mcpUrl), { authProvider: provider });
  const first = new Client({ name: 'oauth-stack-proof', version: '1.0.0' });
  await expect(first.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
  const authorizationUrl = pending(provider);
  const callback = await s.completeSignIn(authorizationUrl, { login });
  expect(callback.origin + callback.pathname).toBe(provider.redirect);
  expect(callback.searchParams.get('state')).toBe(provider.expectedState);
  expect(callback.searchParams.get('iss')).toBe(s.issuer);
  await transport.finishAuth(callback.searchParams);
  return connect(s, provider);
}

/** The authorization URL the SDK last asked to open (read through a call: TypeScript narrows fields). */
function pending(provider: MemoryProvider): URL {
  const url = provider.authorizationUrl;
  if (!url) throw new Error('the client did not ask for authorization');
  return url;
}

function whoami(result: Awaited<ReturnType<Client['callTool']>>): { sub: string | null; scopes: string[] } {
  return result.structuredContent as { sub: string | null; scopes: string[] };
}

describe('the OAuth stack', () => {
  it('signs in through discovery, dynamic registration, PKCE and the login pages, and the token works', async () => {
    const s = await open();
    const provider = new MemoryProvider('http://127.0.0.1:41001/callback');
    const client = await signIn(s, provider);

    const authorizationUrl = pending(provider);
    expect(authorizationUrl.origin).toBe(s.issuer);
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizationUrl.searchParams.get('resource')).toBe(s.mcpUrl);
    expect(provider.info?.client_id).toBeTruthy();
    expect(provider.saved?.refresh_token).toBeTruthy();

    const me = whoami(await client.callTool({ name: 'whoami', arguments: {} }));
    expect(me.sub).toBe('alice');
    expect(me.scopes).toContain(s.scopes.base);
    expect(s.events.authorizationServer.map((e) => e.event)).toEqual(
      expect.arrayContaining(['registration_create.success', 'authorization.success', 'grant.success']),
    );

    // The same registration signs in again from another loopback port (RFC 8252 §7.3).
    provider.redirect = 'http://127.0.0.1:41002/callback';
    provider.saved = undefined;
    const again = await signIn(s, provider, 'bob');
    expect(whoami(await again.callTool({ name: 'whoami', arguments: {} })).sub).toBe('bob');
    expect(
      s.events.authorizationServer.filter((e) => e.event === 'registration_create.success'),
    ).toHaveLength(1);
  });

  it.each(['confidentialBasic', 'confidentialPost'] as const)(
    'signs in with the pre-registered %s client (secret at the token endpoint, no registration)',
    async (name) => {
      const s = await open();
      const registered = s.clients[name];
      const provider = new MemoryProvider('http://127.0.0.1:41011/callback');
      provider.info = {
        client_id: registered.clientId,
        client_secret: registered.clientSecret,
        token_endpoint_auth_method: registered.tokenEndpointAuthMethod,
        redirect_uris: [provider.redirect],
      };
      const client = await signIn(s, provider, 'dana');
      expect(whoami(await client.callTool({ name: 'whoami', arguments: {} })).sub).toBe('dana');
      const events = s.events.authorizationServer.map((e) => `${e.event} ${e.clientId ?? ''}`);
      expect(events).toContain(`grant.success ${registered.clientId}`);
      expect(events.some((e) => e.startsWith('registration_create'))).toBe(false);
    },
  );

  it('a callback with a foreign iss is refused by the SDK (RFC 9207)', async () => {
    const s = await open({ authorizationResponse: 'foreign-iss' });
    const provider = new MemoryProvider('http://127.0.0.1:41006/callback');
    const transport = new StreamableHTTPClientTransport(new URL(s.mcpUrl), { authProvider: provider });
    await expect(
      new Client({ name: 'oauth-stack-proof', version: '1.0.0' }).connect(transport),
    ).rejects.toBeInstanceOf(UnauthorizedError);
    const callback = await s.completeSignIn(pending(provider));
    await expect(transport.finishAuth(callback.searchParams)).rejects.toBeInstanceOf(IssuerMismatchError);
    expect(provider.saved).toBeUndefined();
  });

  it('signs in with a Client ID Metadata Document where the AS supports it, else registers', async () => {
    const s = await open({ clientIdMetadataDocument: 'on' });
    const url = 'https://mcp-host.example/oauth/client-metadata.json';
    const provider = new MemoryProvider('http://127.0.0.1:41007/callback');
    provider.clientMetadataUrl = url;
    s.publishClientMetadata(url, { ...provider.clientMetadata, client_id: url, application_type: 'native' });
    const client = await signIn(s, provider);
    expect(pending(provider).searchParams.get('client_id')).toBe(url);
    expect(whoami(await client.callTool({ name: 'whoami', arguments: {} })).sub).toBe('alice');
    expect(s.events.authorizationServer.map((e) => e.event)).not.toContain('registration_create.success');
    expect(s.events.authorizationServer.map((e) => e.event)).toContain('client_metadata.fetch');

    await s.set({ clientIdMetadataDocument: 'off' });
    const fallback = new MemoryProvider('http://127.0.0.1:41008/callback');
    fallback.clientMetadataUrl = url;
    await signIn(s, fallback);
    expect(pending(fallback).searchParams.get('client_id')).not.toBe(url);
    expect(s.events.authorizationServer.map((e) => e.event)).toContain('registration_create.success');
  });

  it('DPoP: a bound token works with its proofs, not as a bearer token, and refreshes bound', async () => {
    const s = await open({ dpop: 'required' });
    const provider = new MemoryProvider('http://127.0.0.1:41009/callback');
    provider.dpopSession = await DpopSession.create();
    const client = await signIn(s, provider);
    expect(provider.saved?.token_type).toBe('DPoP');
    expect(whoami(await client.callTool({ name: 'whoami', arguments: {} })).sub).toBe('alice');

    const asBearer = await fetch(s.mcpUrl, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${provider.saved?.access_token ?? ''}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(asBearer.status).toBe(401);
    expect(asBearer.headers.get('www-authenticate')).toContain('DPoP');

    s.expireAccessTokens();
    expect(whoami(await client.callTool({ name: 'whoami', arguments: {} })).sub).toBe('alice');
    expect(provider.saved?.token_type).toBe('DPoP');
  });

  it('an expired access token is refreshed on the next call, and the refresh token rotates', async () => {
    const s = await open();
    const provider = new MemoryProvider('http://127.0.0.1:41003/callback');
    const client = await signIn(s, provider);
    const before = provider.saved;
    s.expireAccessTokens();

    expect(whoami(await client.callTool({ name: 'whoami', arguments: {} })).sub).toBe('alice');
    expect(provider.saved?.access_token).not.toBe(before?.access_token);
    expect(provider.saved?.refresh_token).not.toBe(before?.refresh_token);
    expect(s.events.resourceServer.some((e) => e.reason === 'token expired')).toBe(true);
    expect(
      s.events.authorizationServer.filter((e) => e.grantType === 'refresh_token').map((e) => e.event),
    ).toEqual(['grant.success']);

    // Replaying the rotated-out refresh token (two refreshes racing) is invalid_grant and
    // revokes the whole grant: the current refresh token dies with it.
    const clientInformation = provider.info;
    if (!clientInformation) throw new Error('not registered');
    const metadata = await discoverAuthorizationServerMetadata(s.issuer);
    const refresh = (refreshToken: string | undefined) =>
      refreshAuthorization(s.issuer, {
        metadata,
        clientInformation,
        refreshToken: refreshToken ?? '',
        resource: s.mcpUrl,
      });
    await expect(refresh(before?.refresh_token)).rejects.toMatchObject({ code: 'invalid_grant' });
    await expect(refresh(provider.saved?.refresh_token)).rejects.toMatchObject({ code: 'invalid_grant' });
  });

  it('revoked refresh tokens make the refresh fail with invalid_grant', async () => {
    const s = await open();
    const provider = new MemoryProvider('http://127.0.0.1:41004/callback');
    const client = await signIn(s, provider);
    const refreshToken = provider.saved?.refresh_token ?? '';
    const clientInformation = provider.info;
    if (!clientInformation) throw new Error('not registered');
    expect(s.revokeRefreshTokens('alice')).toBe(1);

    const metadata = await discoverAuthorizationServerMetadata(s.issuer);
    await expect(
      refreshAuthorization(s.issuer, { metadata, clientInformation, refreshToken, resource: s.mcpUrl }),
    ).rejects.toMatchObject({ code: 'invalid_grant' });

    // Through the transport: the refused token sends the client back to sign-in.
    s.expireAccessTokens();
    provider.authorizationUrl = undefined;
    await expect(client.callTool({ name: 'whoami', arguments: {} })).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    expect(provider.authorizationUrl).toBeDefined();
  });

  it('refuses a token issued for another resource, and accepts one for itself (client credentials)', async () => {
    const s = await open();
    const machine = s.clients.machine;
    const token = async (resource: string): Promise<string> => {
      const response = await clientCredentialsToken({
        issuer: s.issuer,
        client: machine,
        resource,
        scope: s.scopes.base,
      });
      expect(response.status).toBe(200);
      return ((await response.json()) as { access_token: string }).access_token;
    };
    const ping = (accessToken: string) => pingMcp(s.mcpUrl, accessToken);

    const foreign = await ping(await token(s.otherResource));
    expect(foreign.status).toBe(401);
    expect(foreign.headers.get('www-authenticate')).toContain(`resource_metadata="${s.resourceMetadataUrl}"`);
    expect((await ping(await token(s.mcpUrl))).status).not.toBe(401);

    // The SDK's own client-credentials provider against the same client.
    const provider = new ClientCredentialsProvider({
      clientId: machine.clientId,
      clientSecret: machine.clientSecret ?? '',
      expectedIssuer: s.issuer,
      scope: s.scopes.base,
    });
    const client = await connect(s, provider);
    expect(whoami(await client.callTool({ name: 'whoami', arguments: {} })).scopes).toContain(s.scopes.base);

    // And the private_key_jwt client, signing its assertion with the key the stack hands out.
    const jwtClient = s.clients.machineJwt;
    const signed = await connect(
      s,
      new PrivateKeyJwtProvider({
        clientId: jwtClient.clientId,
        privateKey: jwtClient.privateJwk ?? {},
        algorithm: 'ES256',
        expectedIssuer: s.issuer,
        scope: s.scopes.base,
      }),
    );
    expect(whoami(await signed.callTool({ name: 'whoami', arguments: {} })).scopes).toContain(s.scopes.base);
    expect(
      s.events.authorizationServer.filter((e) => e.clientId === jwtClient.clientId).map((e) => e.event),
    ).toEqual(['grant.success']);
  });

  it('asks for a higher scope with 403 insufficient_scope, and the stepped-up token is accepted', async () => {
    const s = await open({ challengeScope: 'mcp:read offline_access' });
    const provider = new MemoryProvider('http://127.0.0.1:41005/callback');
    await signIn(s, provider);
    expect(provider.saved?.scope?.split(' ')).not.toContain(s.scopes.admin);

    const transport = new StreamableHTTPClientTransport(new URL(s.mcpUrl), { authProvider: provider });
    const client = new Client({ name: 'oauth-stack-proof', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    provider.authorizationUrl = undefined;
    await expect(client.callTool({ name: 'admin-action', arguments: {} })).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    const stepUpUrl = pending(provider);
    expect(stepUpUrl.searchParams.get('scope')?.split(' ')).toContain(s.scopes.admin);
    expect(s.events.resourceServer.some((e) => e.event === 'step-up')).toBe(true);

    const callback = await s.completeSignIn(stepUpUrl);
    await transport.finishAuth(callback.searchParams);
    const stepped = await connect(s, provider);
    const done = await stepped.callTool({ name: 'admin-action', arguments: { what: 'it' } });
    expect(done.content).toEqual([{ type: 'text', text: 'done: it' }]);
  });
});
