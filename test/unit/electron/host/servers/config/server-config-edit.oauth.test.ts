import { describe, expect, it } from 'vitest';
import {
  clientSecretChange,
  inputOf,
  mergeInput,
} from '../../../../../../electron/host/servers/config/server-config-edit.js';
import {
  applyOAuthSecretInput,
  withStoredSecretFlag,
} from '../../../../../../electron/host/servers/http/auth/oauth-secrets.js';
import { MemoryOAuthStore } from '../../../../../../electron/host/servers/http/auth/oauth-store.js';
import { HttpServerConfigSchema } from '../../../../../../shared/model/config.js';
import type { ServerConfig } from '../../../../../../shared/model/config.js';
import { ServerInputSchema } from '../../../../../../shared/model/server-input.js';
import type { ServerInput, ServerInputValues } from '../../../../../../shared/model/server-input.js';

const URL_ = 'https://mcp.example.com/mcp';

/** What the form sends, through the contract's schema (defaults filled in, as the host receives it). */
const form = (oauth?: Partial<NonNullable<Extract<ServerInputValues, { transport: 'http' }>['oauth']>>) =>
  ServerInputSchema.parse({
    transport: 'http',
    name: 'linear',
    url: URL_,
    ...(oauth !== undefined ? { oauth } : {}),
  } satisfies ServerInputValues);

describe('the edit form’s OAuth section ↔ the entry’s oauth block', () => {
  it('writes the client id and the space-separated scopes as an array', () => {
    const config = mergeInput(undefined, form({ clientId: ' app-123 ', scopes: ' read  write\tread ' }));
    expect(config).toEqual({ url: URL_, oauth: { clientId: 'app-123', scopes: ['read', 'write'] } });
    expect(HttpServerConfigSchema.safeParse(config).success).toBe(true);
  });

  it('shows the stored client id and scopes, space-separated, with no secret', () => {
    const input = inputOf('linear', {
      url: URL_,
      oauth: { clientId: 'app-123', scopes: ['read', 'write'], clientSecret: '${env:LINEAR_SECRET}' },
    });
    expect(input).toEqual({
      transport: 'http',
      name: 'linear',
      url: URL_,
      headers: {},
      oauth: {
        clientId: 'app-123',
        clientSecret: '',
        clearClientSecret: false,
        clientSecretStored: false,
        scopes: 'read write',
      },
    });
  });

  it('round-trips: what the form shows, saved unchanged, is the same entry', () => {
    const stored: ServerConfig = {
      url: URL_,
      oauth: { clientId: 'app-123', scopes: ['read', 'write'], grant: 'authorization_code', dpop: true },
    };
    expect(mergeInput(stored, ServerInputSchema.parse(inputOf('linear', stored)))).toEqual(stored);
  });

  it('keeps the oauth keys the form does not own when the client id and scopes change', () => {
    const stored: ServerConfig = {
      url: URL_,
      disabledTools: ['delete'],
      oauth: {
        clientId: 'old',
        scopes: ['read'],
        grant: 'client_credentials',
        clientSecret: '${env:LINEAR_SECRET}',
        tokenEndpointAuthMethod: 'client_secret_post',
      },
    };
    expect(mergeInput(stored, form({ clientId: 'new', scopes: 'read write' }))).toEqual({
      url: URL_,
      disabledTools: ['delete'],
      oauth: {
        clientId: 'new',
        scopes: ['read', 'write'],
        grant: 'client_credentials',
        clientSecret: '${env:LINEAR_SECRET}',
        tokenEndpointAuthMethod: 'client_secret_post',
      },
    });
  });

  it('removes a cleared client id or scopes, and the block once nothing is left in it', () => {
    const stored: ServerConfig = { url: URL_, oauth: { clientId: 'app', scopes: ['read'], dpop: true } };
    expect(mergeInput(stored, form({ clientId: '', scopes: 'read' }))).toEqual({
      url: URL_,
      oauth: { scopes: ['read'], dpop: true },
    });
    const bare: ServerConfig = { url: URL_, oauth: { clientId: 'app', scopes: ['read'] } };
    expect(mergeInput(bare, form({ clientId: '', scopes: '  ' }))).toEqual({ url: URL_ });
  });

  it('leaves the block as it is when the input has no OAuth section (CLI, older clients)', () => {
    const stored: ServerConfig = { url: URL_, oauth: { clientId: 'app', scopes: ['read'] } };
    expect(mergeInput(stored, form())).toEqual(stored);
    expect(inputOf('linear', { url: URL_ })).not.toHaveProperty('oauth');
  });

  it('never writes the typed client secret into the entry', () => {
    const config = mergeInput(undefined, form({ clientId: 'app', clientSecret: 's3cr3t-value' }));
    expect(JSON.stringify(config)).not.toContain('s3cr3t-value');
  });

  it('drops the oauth block when a remote entry becomes a local one', () => {
    const stored: ServerConfig = { url: URL_, oauth: { clientId: 'app' }, disabled: true };
    const local: ServerInput = ServerInputSchema.parse({
      transport: 'stdio',
      name: 'linear',
      command: 'node',
    });
    expect(mergeInput(stored, local)).toEqual({ disabled: true, command: 'node', args: [] });
  });

  it('says a client secret is stored when the caller says so, even with no oauth block', () => {
    const input = inputOf('linear', { url: URL_ }, true);
    expect(input.transport === 'http' && input.oauth?.clientSecretStored).toBe(true);
  });
});

describe('the write-only client secret', () => {
  it('is handed to the caller when typed, cleared with Forget, kept when left empty', () => {
    expect(clientSecretChange(form({ clientSecret: 'typed' }))).toEqual({ kind: 'set', secret: 'typed' });
    expect(clientSecretChange(form({ clearClientSecret: true }))).toEqual({ kind: 'clear' });
    expect(clientSecretChange(form({ clientId: 'app' }))).toEqual({ kind: 'keep' });
    expect(clientSecretChange(form())).toEqual({ kind: 'keep' });
  });

  it('takes a newly typed secret over Forget', () => {
    expect(clientSecretChange(form({ clientSecret: 'new', clearClientSecret: true }))).toEqual({
      kind: 'set',
      secret: 'new',
    });
  });
});

describe('the typed client secret in the encrypted store', () => {
  const environment = () => Promise.resolve({ all: { TENANT: 'acme' } });
  const tenantUrl = 'https://mcp.example.com/${env:TENANT}/mcp';
  const withTenant = ServerInputSchema.parse({
    transport: 'http',
    name: 'linear',
    url: tenantUrl,
    oauth: { clientId: 'app', clientSecret: 'typed-secret' },
  } satisfies ServerInputValues);

  it('is bound to the URL as the connection resolves it, so an ${env:} URL finds it', async () => {
    const store = new MemoryOAuthStore();
    await applyOAuthSecretInput(store, environment, undefined, withTenant);
    // The connection asks for the expanded URL's record.
    const record = await store.get('linear', 'https://mcp.example.com/acme/mcp');
    expect(record.clientSecret).toBe('typed-secret');
    const shown = await withStoredSecretFlag(store, environment, inputOf('linear', { url: tenantUrl }));
    expect(shown.transport === 'http' && shown.oauth?.clientSecretStored).toBe(true);
  });

  it('is put back as it was when the save is undone', async () => {
    const store = new MemoryOAuthStore();
    const undo = await applyOAuthSecretInput(store, environment, undefined, withTenant);
    await undo();
    expect((await store.get('linear', 'https://mcp.example.com/acme/mcp')).clientSecret).toBeUndefined();
  });
});
