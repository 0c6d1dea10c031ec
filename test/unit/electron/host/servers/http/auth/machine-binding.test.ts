/**
 * A machine grant's credentials bound to the authorization server of their
 * first token: the binding's store record, the token endpoint's origin as
 * part of it, and a new credentials identity starting afresh.
 */
import { describe, expect, it } from 'vitest';
import type { OAuthDiscoveryState } from '@modelcontextprotocol/client';
import { IssuerBoundMachineProvider } from '../../../../../../../electron/host/servers/http/auth/machine-binding.js';
import { machineProvider } from '../../../../../../../electron/host/servers/http/auth/machine-providers.js';
import { MemoryOAuthStore } from '../../../../../../../electron/host/servers/http/auth/oauth-store.js';
import type { OAuthConfig } from '../../../../../../../shared/model/config.js';

const RESOURCE = 'https://mcp.example.com/mcp';
const oauth: OAuthConfig = { grant: 'client_credentials', clientId: 'machine', clientSecret: '${env:S}' };

function discovery(issuer: string, tokenEndpoint = `${issuer}/token`): OAuthDiscoveryState {
  return {
    authorizationServerUrl: issuer,
    authorizationServerMetadata: {
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: tokenEndpoint,
      response_types_supported: ['code'],
    },
  };
}

async function bound(
  store: MemoryOAuthStore,
  config: OAuthConfig = oauth,
): Promise<IssuerBoundMachineProvider> {
  return IssuerBoundMachineProvider.create(
    (issuer) =>
      machineProvider('m', 'client_credentials', issuer ? { ...config, issuer } : config, { S: 'secret' }),
    { serverName: 'm', resource: RESOURCE, oauth: config, store, onChange: () => undefined },
  );
}

describe('IssuerBoundMachineProvider', () => {
  it('binds at the first token, then refuses another token endpoint origin of the same issuer', async () => {
    const store = new MemoryOAuthStore();
    const first = await bound(store);
    expect(first.boundIssuer()).toBeUndefined();
    first.saveDiscoveryState(discovery('https://a.example'));
    await first.saveTokens({ access_token: 'x', token_type: 'Bearer' });
    expect(first.boundIssuer()).toBe('https://a.example');
    expect((await store.get('m', RESOURCE)).machineBinding).toMatchObject({
      issuer: 'https://a.example',
      tokenOrigin: 'https://a.example',
    });

    const later = await bound(store);
    expect(later.boundIssuer()).toBe('https://a.example');
    expect(() => {
      later.saveDiscoveryState(discovery('https://a.example', 'https://e.example/token'));
    }).toThrow(
      'Server "m": its client credentials belong to https://a.example with the token endpoint at https://a.example, but the server sends them to https://e.example; refused',
    );
    expect(() => {
      later.saveDiscoveryState(discovery('https://e.example'));
    }).toThrow(
      'Server "m": its client credentials belong to https://a.example, but the server sends them to https://e.example; refused',
    );
    // The SDK is told the bound issuer too: its own check stamps the client with it.
    expect(await later.clientInformation({ issuer: 'https://a.example' })).toMatchObject({
      client_id: 'machine',
      issuer: 'https://a.example',
    });
  });

  it('another client ID (or URL) is another identity: its binding starts afresh', async () => {
    const store = new MemoryOAuthStore();
    const first = await bound(store);
    first.saveDiscoveryState(discovery('https://a.example'));
    await first.saveTokens({ access_token: 'x', token_type: 'Bearer' });
    const other = await bound(store, { ...oauth, clientId: 'other' });
    expect(other.boundIssuer()).toBeUndefined();
    expect(() => {
      other.saveDiscoveryState(discovery('https://b.example'));
    }).not.toThrow();
    const elsewhere = await IssuerBoundMachineProvider.create(
      () => machineProvider('m', 'client_credentials', oauth, { S: 'secret' }),
      { serverName: 'm', resource: 'https://moved.example/mcp', oauth, store, onChange: () => undefined },
    );
    expect(elsewhere.boundIssuer()).toBeUndefined();
  });
});
