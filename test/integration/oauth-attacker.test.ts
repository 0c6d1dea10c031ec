/**
 * Issue 21, findings 1, 2, 7 and 12: credentials stay with the authorization
 * server that issued them. The real stack (oidc-provider in front of a
 * v2-SDK MCP server, test/helpers/oauth-stack.ts) is the honest side; a
 * second authorization server (test/helpers/attacker-as.ts) that the MCP
 * server can be made to name plays the attacker and records everything it
 * receives. The "browser" is the stack's `completeSignIn` (login and consent
 * over HTTP) or, at the attacker, a redirect straight back.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ServerAuthSession } from '../../electron/host/servers/http/auth/server-auth.js';
import { MemoryOAuthStore } from '../../electron/host/servers/http/auth/oauth-store.js';
import type { ServerConfig } from '../../shared/model/config.js';
import type { ServerSnapshot } from '../../shared/model/server.js';
import { createTestHost, start, value, waitForSnapshot } from '../helpers/host.js';
import type { TestHost } from '../helpers/host.js';
import { tempDir } from '../helpers/servers.js';
import { startOAuthStack } from '../helpers/oauth-stack.js';
import type { OAuthStack } from '../helpers/oauth-stack.js';
import { followAttackerAuthorization, startAttackerAS } from '../helpers/attacker-as.js';
import type { AttackerAS } from '../helpers/attacker-as.js';
import { RecordingPlatform } from '../helpers/recording-platform.js';

let stack: OAuthStack;
let attacker: AttackerAS;
let t: TestHost | undefined;
let platform: RecordingPlatform;
/** Secrets of this test run: none may show up in a log line, a message or at the attacker. */
const SECRET_ENV = 'STACK_CLIENT_SECRET';
const MACHINE_SECRET_ENV = 'STACK_MACHINE_SECRET';

beforeAll(async () => {
  stack = await startOAuthStack({ redirectUris: ['http://127.0.0.1/oauth/callback'] });
});
afterAll(async () => {
  await stack.close();
});
afterEach(async () => {
  await t?.dispose();
  t = undefined;
  await attacker.close();
  await stack.reset();
});

/** A host with the entry "secure"; `dataDir` reuses another host's data folder (a restart). */
async function hostWith(secure: ServerConfig, dataDir = tempDir()): Promise<TestHost> {
  platform = new RecordingPlatform(dataDir, () => Promise.resolve(true), { keychain: null });
  const secret = stack.clients.confidentialBasic.clientSecret ?? '';
  const machineSecret = stack.clients.machine.clientSecret ?? '';
  t = await createTestHost(
    { secure },
    {
      platform,
      tuning: { pingIntervalMs: 0, signInTimeoutMs: 20_000 },
      environment: () =>
        Promise.resolve({
          all: { [SECRET_ENV]: secret, [MACHINE_SECRET_ENV]: machineSecret },
          source: 'test',
        }),
    },
  );
  return t;
}

function host(): TestHost {
  if (!t) throw new Error('no host');
  return t;
}

const preRegistered = (extra: Record<string, unknown> = {}): ServerConfig => ({
  url: stack.mcpUrl,
  oauth: {
    clientId: stack.clients.confidentialBasic.clientId,
    clientSecret: `\${env:${SECRET_ENV}}`,
    tokenEndpointAuthMethod: 'client_secret_basic',
    ...extra,
  },
});

/** Presses Sign in and plays the browser: the stack's pages, or the attacker's redirect. */
async function pressSignIn(): Promise<ServerSnapshot> {
  const from = host().events.length;
  const opened = platform.opened.length;
  await host().api.signInServer({ name: 'secure' });
  const url = platform.opened[opened];
  if (url !== undefined) {
    if (url.startsWith(attacker.issuer)) await followAttackerAuthorization(url);
    else await (await fetch(await stack.completeSignIn(url))).text();
  }
  return waitForSnapshot(
    host(),
    'secure',
    (s) => s.auth?.state !== 'waiting' && s.status !== 'connecting',
    'sign-in settled',
    from,
  );
}

async function connected(): Promise<ServerSnapshot> {
  const snapshot = await pressSignIn();
  if (snapshot.status === 'connected') return snapshot;
  return waitForSnapshot(host(), 'secure', (s) => s.status === 'connected', 'connected');
}

async function logText(): Promise<string> {
  return value(await host().api.getServerLogs({ name: 'secure' }))
    .entries.map((e) => e.text)
    .join('\n');
}

/** No client secret, token or code in the log or the server's messages. */
async function expectNoSecretsShown(extra: readonly string[] = []): Promise<void> {
  const shown = `${await logText()}\n${JSON.stringify(value(await host().api.listServers({})))}`;
  const secret = stack.clients.confidentialBasic.clientSecret ?? '';
  expect(secret.length).toBeGreaterThan(8);
  for (const forbidden of [secret, 'attacker-code', 'attacker-access', 'attacker-refresh', ...extra]) {
    expect(shown).not.toContain(forbidden);
  }
  expect(shown).not.toMatch(/eyJ[\w-]{10,}/);
  expect(shown).not.toMatch(/code_verifier|refresh_token=|access_token=/);
}

/** The attacker got no token, no client secret, no client id and no code. */
function expectAttackerGotNothing(): void {
  const secret = stack.clients.confidentialBasic.clientSecret ?? '';
  const received = attacker.received();
  expect(received).not.toContain(secret);
  expect(received).not.toContain(
    Buffer.from(`${stack.clients.confidentialBasic.clientId}:`).toString('base64').slice(0, 12),
  );
  expect(received).not.toMatch(/token=|eyJ[\w-]{10,}|attacker-code/);
  expect(attacker.requests.filter((r) => r.authorization !== undefined)).toEqual([]);
  expect(attacker.requests.filter((r) => r.method === 'POST')).toEqual([]);
}

describe('finding 1: sign-out revokes only at the issuer of the tokens', () => {
  it('a server that now names another authorization server gets no token at sign-out; the issuer revokes', async () => {
    attacker = await startAttackerAS();
    const revocations: string[] = [];
    const realFetch = globalThis.fetch;
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      const response = await realFetch(input, init);
      if (/revo/.test(url)) revocations.push(`${new URL(url).origin} ${String(response.status)}`);
      return response;
    });
    try {
      await hostWith(preRegistered());
      expect((await start(host().api, 'secure')).status).toBe('sign-in-required');
      await connected();
      // The server (or whoever took it over) moves to the attacker's authorization server.
      await stack.set({ authorizationServers: [attacker.issuer] });
      stack.expireAccessTokens();
      const call = await host().api.callTool({ server: 'secure', tool: 'whoami', argumentsJson: '{}' });
      expect(call.ok).toBe(false);
      const out = value(await host().api.signOutServer({ name: 'secure' }));
      expect(out.auth?.message).toBe('Signed out');
      expect(revocations).toEqual([`${stack.issuer} 200`]);
      expectAttackerGotNothing();
      expect(await logText()).toContain(`OAuth: POST ${stack.issuer}/token/revocation`);
      await expectNoSecretsShown();
    } finally {
      spy.mockRestore();
    }
  });

  it('when the issuer cannot be reached, the tokens are forgotten and the line says revocation was skipped and why', async () => {
    attacker = await startAttackerAS();
    await hostWith({ url: stack.mcpUrl });
    await start(host().api, 'secure');
    await connected();
    await stack.set({ authorizationServers: [attacker.issuer], authorizationServerReachable: false });
    const out = value(await host().api.signOutServer({ name: 'secure' }));
    const line = `Signed out; the tokens were forgotten here but not revoked: their issuer ${new URL(stack.issuer).host} could not be reached`;
    expect(out.auth?.message).toBe(line);
    expect(await logText()).toContain(line);
    expectAttackerGotNothing();
    await stack.set({ authorizationServerReachable: true, authorizationServers: undefined });
    expect((await start(host().api, 'secure')).status).toBe('sign-in-required');
    await expectNoSecretsShown();
  });
});

describe('finding 2: a pre-registered client belongs to one issuer', () => {
  it('oauth.issuer pins the browser flow: another issuer gets no client secret, and the line names both', async () => {
    attacker = await startAttackerAS();
    await stack.set({ authorizationServers: [attacker.issuer] });
    await hostWith(preRegistered({ issuer: stack.issuer }));
    await start(host().api, 'secure');
    const failed = await pressSignIn();
    expectAttackerGotNothing();
    expect(failed.status).toBe('sign-in-required');
    expect(failed.auth?.message).toBe(
      `Server "secure": its oauth.issuer is ${stack.issuer}, but the server sends the sign-in to ${attacker.issuer}; refused`,
    );
    expect(platform.opened).toEqual([]);
    expectAttackerGotNothing();
    await expectNoSecretsShown();
  });

  it('without oauth.issuer it is bound to the first issuer, shown in the sign-in info; another one gets no secret', async () => {
    attacker = await startAttackerAS();
    await hostWith(preRegistered());
    await start(host().api, 'secure');
    const first = await connected();
    expect(first.auth).toMatchObject({ client: 'pre-registered', clientIssuer: stack.issuer });
    await stack.set({ authorizationServers: [attacker.issuer] });
    stack.expireAccessTokens();
    await host().api.callTool({ server: 'secure', tool: 'whoami', argumentsJson: '{}' });
    const failed = await pressSignIn();
    expectAttackerGotNothing();
    expect(failed.auth?.message).toBe(
      `Server "secure": its client ID belongs to ${stack.issuer}, but the server sends the sign-in to ${attacker.issuer}; refused`,
    );
    expect(failed.auth?.clientIssuer).toBe(stack.issuer);
    expectAttackerGotNothing();
    await expectNoSecretsShown();
  });
});

describe('finding 2: machine credentials belong to the first issuer they were used with', () => {
  it('a client_credentials entry without oauth.issuer, bound at A, sends nothing to E, also after a restart', async () => {
    attacker = await startAttackerAS();
    const machine = stack.clients.machine;
    const machineSecret = machine.clientSecret ?? '';
    expect(machineSecret.length).toBeGreaterThan(8);
    const entry: ServerConfig = {
      url: stack.mcpUrl,
      oauth: {
        grant: 'client_credentials',
        clientId: machine.clientId,
        clientSecret: `\${env:${MACHINE_SECRET_ENV}}`,
      },
    };
    await hostWith(entry);
    const first = await start(host().api, 'secure');
    expect(first.status).toBe('connected');
    expect(first.auth).toMatchObject({
      state: 'signed-in',
      client: 'client-credentials',
      clientIssuer: stack.issuer,
    });

    // The server (or whoever took it over) now names the attacker's authorization server.
    await stack.set({ authorizationServers: [attacker.issuer] });
    stack.expireAccessTokens();
    const from = host().events.length;
    const call = await host().api.callTool({ server: 'secure', tool: 'whoami', argumentsJson: '{}' });
    expect(call.ok).toBe(false);
    const line = `Server "secure": its client credentials belong to ${stack.issuer}, but the server sends them to ${attacker.issuer}; refused`;
    const failed = await waitForSnapshot(
      host(),
      'secure',
      (s) => s.status === 'sign-in-required',
      'refused',
      from,
    );
    expect(failed.auth?.message).toBe(line);
    expect(failed.auth?.clientIssuer).toBe(stack.issuer);
    const attackerGotNothing = (): void => {
      expect(attacker.requests.filter((r) => r.path.startsWith('/token'))).toEqual([]);
      expect(attacker.received()).not.toContain(machineSecret);
      expect(attacker.received()).not.toContain(Buffer.from(`${machine.clientId}:`).toString('base64'));
      expectAttackerGotNothing();
    };
    attackerGotNothing();
    await expectNoSecretsShown([machineSecret]);

    // A new host on the same data folder: the binding was kept.
    const dataDir = platform.userDataDir();
    await host().dispose();
    t = undefined;
    await hostWith(entry, dataDir);
    const again = await start(host().api, 'secure');
    expect(again.status).toBe('sign-in-required');
    expect(again.auth?.message).toBe(line);
    expect(again.auth?.clientIssuer).toBe(stack.issuer);
    attackerGotNothing();
    await expectNoSecretsShown([machineSecret]);
  });
});

describe('finding 7: no background requests beyond the MCP server', () => {
  it('before Sign in only the server’s origin is contacted; after, every URL the flow fetches is in the log', async () => {
    attacker = await startAttackerAS();
    await stack.set({ authorizationServers: [attacker.issuer] });
    await hostWith({ url: stack.mcpUrl });
    const honestBefore = stack.events.authorizationServer.length;
    const first = await start(host().api, 'secure');
    expect(first.status).toBe('sign-in-required');
    await start(host().api, 'secure');
    expect(attacker.requests).toEqual([]);
    expect(stack.events.authorizationServer.length).toBe(honestBefore);

    // The person presses Sign in: the flow may go to the named authorization server (both are on loopback).
    await host().api.signInServer({ name: 'secure' });
    value(await host().api.cancelSignIn({ name: 'secure' }));
    expect(attacker.requests.length).toBeGreaterThan(0);
    const log = await logText();
    for (const request of attacker.requests) {
      const path = request.path.split('?')[0] ?? '';
      expect(log).toContain(`OAuth: ${request.method} ${attacker.issuer}${path}`);
    }
    expect(log).toContain(
      `OAuth: GET ${new URL(stack.mcpUrl).origin}/.well-known/oauth-protected-resource/mcp`,
    );
    await expectNoSecretsShown();
  });

  it('a server on a public address cannot send the sign-in to a loopback or private one', async () => {
    attacker = await startAttackerAS();
    await stack.set({ authorizationServers: [attacker.issuer] });
    const lines: string[] = [];
    const session = new ServerAuthSession(
      'public',
      {
        store: new MemoryOAuthStore(),
        openBrowser: () => Promise.resolve(),
        // The MCP server is reached as "localhost", which this resolver calls a public address.
        resolve: (hostname) => Promise.resolve(hostname === 'localhost' ? ['203.0.113.7'] : [hostname]),
      },
      '0.0.0-test',
      () => undefined,
      (_level, text) => lines.push(text),
    );
    const resource = stack.mcpUrl.replace('127.0.0.1', 'localhost');
    await session.prepare({ url: resource }, resource, {}, globalThis.fetch);
    await expect(session.signIn(() => undefined)).rejects.toThrow(
      `Server "public": refused to contact ${new URL(attacker.issuer).host}: a private or local address, while the server itself is not on one`,
    );
    expect(attacker.requests).toEqual([]);
    expect(lines.join('\n')).toContain(
      `OAuth: GET ${new URL(resource).origin}/.well-known/oauth-protected-resource/mcp`,
    );
  });
});

describe('finding 12: refresh failures and PKCE', () => {
  it('a refresh answered with a 5xx keeps the sign-in, and a later refresh renews it without a new sign-in', async () => {
    attacker = await startAttackerAS();
    // Tokens that live 30 s are always within the renewal margin: every request tries a refresh.
    await stack.set({ accessTokenTtl: 30 });
    await hostWith({ url: stack.mcpUrl });
    await start(host().api, 'secure');
    await connected();
    const codeGrants = () =>
      stack.events.authorizationServer.filter(
        (e) => e.event === 'grant.success' && e.grantType === 'authorization_code',
      ).length;
    const refreshes = () =>
      stack.events.authorizationServer.filter(
        (e) => e.event === 'grant.success' && e.grantType === 'refresh_token',
      ).length;
    const grantsBefore = codeGrants();
    await stack.set({ tokenFailure: 'server-error', tokenFailureGrantType: 'refresh_token' });
    const during = await host().api.callTool({ server: 'secure', tool: 'whoami', argumentsJson: '{}' });
    expect(value(during).isError).toBe(false);
    const snapshot = value(await host().api.listServers({})).find((s) => s.name === 'secure');
    expect(snapshot?.status).toBe('connected');
    expect(snapshot?.auth?.state).toBe('signed-in');

    await stack.set({ tokenFailure: undefined, tokenFailureGrantType: undefined });
    const renewedBefore = refreshes();
    // The next tries wait out the backoff (2 s after the first failure, then doubling).
    for (let waited = 0; waited < 10_000 && refreshes() === renewedBefore; waited += 500) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const call = await host().api.callTool({ server: 'secure', tool: 'whoami', argumentsJson: '{}' });
      expect(value(call).isError).toBe(false);
    }
    expect(refreshes()).toBeGreaterThan(renewedBefore);
    expect(codeGrants()).toBe(grantsBefore);
    expect(platform.opened).toHaveLength(1);
    await expectNoSecretsShown();
  });

  it('a refresh refused with invalid_grant still ends the sign-in', async () => {
    attacker = await startAttackerAS();
    await stack.set({ accessTokenTtl: 30 });
    await hostWith({ url: stack.mcpUrl });
    await start(host().api, 'secure');
    await connected();
    await stack.set({ tokenFailure: 'invalid-grant', tokenFailureGrantType: 'refresh_token' });
    stack.expireAccessTokens();
    const from = host().events.length;
    const call = await host().api.callTool({ server: 'secure', tool: 'whoami', argumentsJson: '{}' });
    expect(call.ok).toBe(false);
    if (!call.ok) expect(call.error.message).toMatch(/expired or was revoked/);
    const required = await waitForSnapshot(
      host(),
      'secure',
      (s) => s.status === 'sign-in-required',
      'refused',
      from,
    );
    expect(required.auth?.message).toMatch(/expired or was revoked/);
    await expectNoSecretsShown();
  });

  it.each(['absent', 'plain'] as const)(
    'an authorization server whose metadata has code_challenge_methods_supported %s is refused with one line',
    async (pkce) => {
      attacker = await startAttackerAS({ pkce });
      await stack.set({ authorizationServers: [attacker.issuer] });
      await hostWith({ url: stack.mcpUrl });
      await start(host().api, 'secure');
      const failed = await pressSignIn();
      expect(failed.auth?.message).toBe(
        `Server "secure": the authorization server ${new URL(attacker.issuer).host} does not advertise PKCE with S256 (code_challenge_methods_supported); sign-in refused`,
      );
      expect(platform.opened).toEqual([]);
      expectAttackerGotNothing();
      await expectNoSecretsShown();
    },
  );
});
