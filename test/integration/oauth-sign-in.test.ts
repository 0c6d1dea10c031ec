/**
 * The host's OAuth sign-in against a real authorization server (oidc-provider)
 * in front of a v2-SDK MCP server that checks the bearer token and its
 * audience (test/helpers/oauth-stack.ts). The browser is the stack's
 * `completeSignIn`, which does the login and consent pages over HTTP; the
 * host's Platform.openExternal only records the authorization URL.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { OAUTH_FILE_NAME } from '../../electron/host/host.js';
import type { ServerConfig } from '../../shared/model/config.js';
import type { ServerSnapshot } from '../../shared/model/server.js';
import { createTestHost, start, value, waitForSnapshot } from '../helpers/host.js';
import type { TestHost } from '../helpers/host.js';
import { rawServer, tempDir } from '../helpers/servers.js';
import { startOAuthStack } from '../helpers/oauth-stack.js';
import type { OAuthStack } from '../helpers/oauth-stack.js';
import { RecordingPlatform } from '../helpers/recording-platform.js';

let stack: OAuthStack;
let t: TestHost;
let platform: RecordingPlatform;

beforeAll(async () => {
  stack = await startOAuthStack();
});
afterAll(async () => {
  await stack.close();
});
afterEach(async () => {
  await t.dispose();
  await stack.reset();
});

async function hostWith(signInTimeoutMs = 20_000): Promise<TestHost> {
  platform = new RecordingPlatform(tempDir(), () => Promise.resolve(true), { keychain: null });
  const servers: Record<string, ServerConfig> = { secure: { url: stack.mcpUrl }, local: rawServer() };
  t = await createTestHost(servers, {
    platform,
    tuning: { pingIntervalMs: 0, signInTimeoutMs },
  });
  return t;
}

/** Clicks Sign in, completes the authorization server's pages, returns the connected snapshot. */
async function signIn(): Promise<ServerSnapshot> {
  const from = t.events.length;
  const waiting = value(await t.api.signInServer({ name: 'secure' }));
  expect(waiting.auth?.state).toBe('waiting');
  const url = platform.opened.at(-1);
  expect(url).toBeDefined();
  expect(waiting.auth?.authorizationUrl).toBe(url);
  const callback = await stack.completeSignIn(url ?? '');
  await (await fetch(callback)).text();
  return waitForSnapshot(t, 'secure', (s) => s.status === 'connected', 'connected after sign-in', from);
}

function logText(): Promise<string> {
  return t.api.getServerLogs({ name: 'secure' }).then((r) =>
    value(r)
      .entries.map((e) => e.text)
      .join('\n'),
  );
}

describe('OAuth sign-in through the host core', () => {
  it('needs a sign-in, signs in through the browser, calls a tool, and keeps no token in clear', async () => {
    await hostWith();
    const first = await start(t.api, 'secure');
    expect(first.status).toBe('sign-in-required');
    expect(first.auth?.state).toBe('required');
    expect(first.auth?.message).toMatch(/Sign in at 127\.0\.0\.1:\d+/);
    // Nothing was registered and no browser opened before the person asked.
    expect(platform.opened).toEqual([]);
    expect(stack.events.authorizationServer.filter((e) => e.event === 'registration_create.success')).toEqual(
      [],
    );
    expect((await start(t.api, 'local')).status).toBe('connected');

    const connected = await signIn();
    expect(connected.auth).toMatchObject({ state: 'signed-in', issuer: stack.issuer, client: 'dynamic' });
    // The account is shown where the server says (an ID token); these scopes ask for none.
    expect(connected.auth?.account ?? 'alice').toMatch(/alice/);
    expect(connected.auth?.scopes).toContain('mcp:read');
    expect(connected.auth?.expiresAt).toBeGreaterThan(Date.now());

    const result = value(await t.api.callTool({ server: 'secure', tool: 'whoami', argumentsJson: '{}' }));
    expect(JSON.stringify(result.content)).toContain('alice');

    // Tokens are in the OAuth store only, never in clear on disk, the config or the log.
    const stored = readFileSync(join(platform.userDataDir(), OAUTH_FILE_NAME), 'utf8');
    // Obfuscated here (tests run without a keychain), never readable JSON with tokens or a JWT.
    expect(stored).not.toMatch(/access_token|refresh_token|eyJhbGci|eyJ0eXAi/);
    expect(readFileSync(t.configPath, 'utf8')).not.toMatch(/token/i);
    expect(await logText()).not.toMatch(/eyJ[\w-]{10,}/);
    expect(value(await t.api.listServers({})).find((s) => s.name === 'local')?.status).toBe('connected');
  });

  it('renews an expired access token silently, one refresh for many requests', async () => {
    await hostWith();
    await start(t.api, 'secure');
    await signIn();
    stack.expireAccessTokens();
    const before = stack.events.authorizationServer.filter(
      (e) => e.event === 'grant.success' && e.grantType === 'refresh_token',
    ).length;
    const calls = await Promise.all(
      Array.from({ length: 5 }, () =>
        t.api.callTool({ server: 'secure', tool: 'whoami', argumentsJson: '{}' }),
      ),
    );
    for (const call of calls) expect(value(call).isError).toBe(false);
    const refreshes = stack.events.authorizationServer.filter(
      (e) => e.event === 'grant.success' && e.grantType === 'refresh_token',
    ).length;
    expect(refreshes - before).toBe(1);
    expect(value(await t.api.listServers({})).find((s) => s.name === 'secure')?.status).toBe('connected');
  });

  it('turns a revoked refresh token into "Sign-in required", and signs in again', async () => {
    await hostWith();
    await start(t.api, 'secure');
    await signIn();
    stack.revokeRefreshTokens();
    stack.expireAccessTokens();
    const from = t.events.length;
    const call = await t.api.callTool({ server: 'secure', tool: 'whoami', argumentsJson: '{}' });
    expect(call.ok).toBe(false);
    if (!call.ok) expect(call.error.code).toBe('sign_in_required');
    const required = await waitForSnapshot(
      t,
      'secure',
      (s) => s.status === 'sign-in-required',
      'sign-in',
      from,
    );
    expect(required.auth?.message).toMatch(/expired or was revoked|new sign-in/);
    await signIn();
  });

  it('a step-up says which permission is missing, and the next sign-in asks for it and what was granted', async () => {
    await stack.set({ challengeScope: 'mcp:read' });
    await hostWith();
    await start(t.api, 'secure');
    const first = await signIn();
    expect(first.auth?.scopes).not.toContain('mcp:admin');
    const call = await t.api.callTool({ server: 'secure', tool: 'admin-action', argumentsJson: '{}' });
    expect(call.ok).toBe(false);
    if (!call.ok) {
      expect(call.error.code).toBe('sign_in_required');
      expect(call.error.message).toMatch(
        /^The server needs more permissions \(.*mcp:admin.*\); sign in again/,
      );
    }
    const again = await signIn();
    expect(again.auth?.scopes).toEqual(expect.arrayContaining(['mcp:read', 'mcp:admin']));
    expect(
      value(await t.api.callTool({ server: 'secure', tool: 'admin-action', argumentsJson: '{}' })).isError,
    ).toBe(false);
  });

  it('signs out: revokes at the authorization server and forgets the tokens', async () => {
    // oidc-provider reports no event for a revocation, so the request is watched on its way out.
    const revocations: number[] = [];
    const realFetch = globalThis.fetch;
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const response = await realFetch(input, init);
      if (String(input instanceof Request ? input.url : input).endsWith('/token/revocation')) {
        revocations.push(response.status);
      }
      return response;
    });
    try {
      await hostWith();
      await start(t.api, 'secure');
      await signIn();
      const out = value(await t.api.signOutServer({ name: 'secure' }));
      expect(out.status).toBe('sign-in-required');
      expect(out.auth?.message).toBe('Signed out');
      expect(revocations).toEqual([200]);
      expect(stack.events.authorizationServer.some((e) => e.event === 'revocation.error')).toBe(false);
      const again = await start(t.api, 'secure');
      expect(again.status).toBe('sign-in-required');
    } finally {
      spy.mockRestore();
    }
  });
});

describe('OAuth sign-in: bad input ends in one clear line', () => {
  async function failedSignIn(): Promise<ServerSnapshot> {
    const from = t.events.length;
    await t.api.signInServer({ name: 'secure' });
    const url = platform.opened.at(-1);
    if (url !== undefined) {
      const callback = await stack.completeSignIn(url).catch(() => undefined);
      if (callback) await (await fetch(callback)).text();
    }
    return waitForSnapshot(
      t,
      'secure',
      (s) => s.status === 'sign-in-required' && s.auth?.state === 'required',
      'sign-in failure',
      from,
    );
  }

  async function expectOneLine(pattern: RegExp): Promise<void> {
    const snapshot = await failedSignIn();
    expect(snapshot.auth?.message).toMatch(pattern);
    expect(snapshot.auth?.message).not.toMatch(/\n|at .*\.js:\d+/);
    expect(await logText()).not.toMatch(/eyJ[\w-]{10,}/);
    expect(value(await t.api.listServers({})).find((s) => s.name === 'local')?.status).toBe('connected');
  }

  // The authorization server is only contacted once Sign in is pressed (issue 21, finding 7).
  it('authorization server unreachable', async () => {
    await hostWith();
    await start(t.api, 'local');
    await stack.set({ authorizationServerReachable: false });
    expect((await start(t.api, 'secure')).status).toBe('sign-in-required');
    expect((await failedSignIn()).auth?.message).toMatch(/cannot reach the authorization server/);
    expect((await start(t.api, 'local')).status).toBe('connected');
  });

  it('metadata with the wrong issuer', async () => {
    await hostWith();
    await start(t.api, 'local');
    await stack.set({ oauthMetadata: 'wrong-issuer', openidMetadata: 'wrong-issuer' });
    expect((await start(t.api, 'secure')).status).toBe('sign-in-required');
    const snapshot = await failedSignIn();
    expect(snapshot.status).toBe('sign-in-required');
    expect(snapshot.auth?.message).toMatch(/different issuer|sign-in failed/);
  });

  it('a state mismatch is refused and the sign-in keeps waiting until it times out', async () => {
    await hostWith(3000);
    await start(t.api, 'local');
    await start(t.api, 'secure');
    await stack.set({ authorizationResponse: 'state-mismatch' });
    await expectOneLine(/not completed within 1 min/);
  });

  it('a response from a foreign issuer (mix-up) is refused', async () => {
    await hostWith();
    await start(t.api, 'local');
    await start(t.api, 'secure');
    await stack.set({ authorizationResponse: 'foreign-iss' });
    await expectOneLine(/did not come from the expected authorization server/);
  });

  it('the token endpoint answers 500', async () => {
    await hostWith();
    await start(t.api, 'local');
    await start(t.api, 'secure');
    await stack.set({ tokenFailure: 'server-error' });
    await expectOneLine(/authorization server failed|sign-in failed/);
  });

  it('the person cancels', async () => {
    await hostWith();
    await start(t.api, 'local');
    await start(t.api, 'secure');
    const from = t.events.length;
    await t.api.signInServer({ name: 'secure' });
    value(await t.api.cancelSignIn({ name: 'secure' }));
    const snapshot = await waitForSnapshot(
      t,
      'secure',
      (s) => s.auth?.state === 'required',
      'cancelled',
      from,
    );
    expect(snapshot.auth?.message).toMatch(/cancelled/);
  });

  it('a server that demands step-up forever: each call ends in one line, no loop, the server stays usable', async () => {
    await hostWith();
    await start(t.api, 'local');
    await start(t.api, 'secure');
    await signIn();
    await stack.set({ stepUp: 'forever' });
    const grants = () => stack.events.authorizationServer.filter((e) => e.event === 'grant.success').length;
    const before = grants();
    for (let attempt = 0; attempt < 3; attempt++) {
      const call = await t.api.callTool({ server: 'secure', tool: 'admin-action', argumentsJson: '{}' });
      expect(call.ok).toBe(false);
      if (!call.ok)
        expect(call.error.message).toMatch(/still asks for more permissions|needs more permissions/);
    }
    // At most one renewal per refused call: never a loop.
    expect(grants() - before).toBeLessThanOrEqual(3);
    expect(
      value(await t.api.callTool({ server: 'secure', tool: 'whoami', argumentsJson: '{}' })).isError,
    ).toBe(false);
    expect(value(await t.api.listServers({})).find((s) => s.name === 'local')?.status).toBe('connected');
  });
});
