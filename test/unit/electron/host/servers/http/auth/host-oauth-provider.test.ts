/**
 * What the server view shows of a sign-in comes from the authorization
 * server: however long or odd, it must fit the view's schema, or one hostile
 * server would break the whole server list in the renderer.
 */
import { describe, expect, it } from 'vitest';
import { HostOAuthProvider } from '../../../../../../../electron/host/servers/http/auth/host-oauth-provider.js';
import { MemoryOAuthStore } from '../../../../../../../electron/host/servers/http/auth/oauth-store.js';
import { ServerAuthSchema } from '../../../../../../../shared/model/server.js';

describe('HostOAuthProvider.describe', () => {
  it('bounds a hostile issuer, scope list and expiry to what the server view accepts', async () => {
    const provider = await HostOAuthProvider.create({
      serverName: 'hostile',
      resource: 'https://mcp.example/mcp',
      config: {},
      store: new MemoryOAuthStore(),
      env: {},
      appVersion: '0.0.0-test',
      fetch: globalThis.fetch,
      onChange: () => undefined,
    });
    const scopes = Array.from({ length: 1000 }, (_, i) => `s${String(i)}${'x'.repeat(i === 0 ? 5000 : 1)}`);
    await provider.saveTokens(
      { access_token: 'a', token_type: 'Bearer', scope: scopes.join(' '), expires_in: 1e308 },
      { issuer: `https://as.example/${'i'.repeat(10_000)}` },
    );
    const { signedIn, ...shown } = provider.describe();
    expect(signedIn).toBe(true);
    const parsed = ServerAuthSchema.safeParse({ ...shown, state: 'signed-in' });
    expect(parsed.success).toBe(true);
    expect(shown.issuer?.length).toBeLessThanOrEqual(2048);
    expect(shown.scopes).toHaveLength(256);
    expect(shown.expiresAt).toBeUndefined();
  });
});
