import { describe, expect, it } from 'vitest';
import {
  EMPTY_ENTRY_FORM,
  entryFormOf,
  parseServerEntryForm,
} from '../../../../../../renderer/src/features/config/server-entry-form.js';

describe('parseServerEntryForm', () => {
  it('reads a remote server with headers and an explicit transport', () => {
    const result = parseServerEntryForm({
      ...EMPTY_ENTRY_FORM,
      transport: 'http',
      name: 'remote',
      url: ' https://example.com/mcp ',
      type: 'sse',
      headers: 'Authorization: Bearer abc:def\n\nX-Key:  1 ',
    });
    expect(result).toEqual({
      ok: true,
      input: {
        transport: 'http',
        name: 'remote',
        url: 'https://example.com/mcp',
        type: 'sse',
        headers: { Authorization: 'Bearer abc:def', 'X-Key': '1' },
      },
    });
  });

  it('reports a bad URL and a malformed header line on their fields', () => {
    const result = parseServerEntryForm({
      ...EMPTY_ENTRY_FORM,
      transport: 'http',
      name: 'r',
      url: 'ftp://example.com',
      headers: 'no colon here',
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.url).toBe('URL must be http:// or https://');
    expect(result.errors.headers).toBe('Line 1: write Name: value');
  });

  it('keeps the stdio path of the add form and round-trips an entry', () => {
    const input = {
      transport: 'stdio' as const,
      name: 'files',
      command: 'npx',
      args: ['-y', 'server'],
      env: { A: '1' },
      cwd: '/tmp',
    };
    expect(parseServerEntryForm(entryFormOf(input))).toEqual({ ok: true, input });
    const remote = { transport: 'http' as const, name: 'r', url: 'https://x.dev/mcp', headers: { K: 'v' } };
    expect(parseServerEntryForm(entryFormOf(remote))).toEqual({ ok: true, input: remote });
  });
});

describe('the OAuth section of a remote server', () => {
  const remote = {
    ...EMPTY_ENTRY_FORM,
    transport: 'http' as const,
    name: 'linear',
    url: 'https://x.dev/mcp',
  };

  it('sends the client id, the typed secret and the scopes; nothing when the section stays empty', () => {
    expect(parseServerEntryForm(remote)).toMatchObject({ ok: true, input: { name: 'linear' } });
    const empty = parseServerEntryForm(remote);
    expect(empty.ok && 'oauth' in empty.input).toBe(false);
    expect(
      parseServerEntryForm({
        ...remote,
        oauthClientId: ' app-1 ',
        oauthClientSecret: 'typed',
        oauthScopes: 'read write',
      }),
    ).toMatchObject({
      ok: true,
      input: {
        oauth: { clientId: 'app-1', clientSecret: 'typed', clearClientSecret: false, scopes: 'read write' },
      },
    });
  });

  it('shows a stored entry’s client id and scopes, never a secret, and knows one is stored', () => {
    const values = entryFormOf({
      transport: 'http',
      name: 'linear',
      url: 'https://x.dev/mcp',
      headers: {},
      oauth: {
        clientId: 'app-1',
        clientSecret: '',
        clearClientSecret: false,
        clientSecretStored: true,
        scopes: 'read',
      },
    });
    expect(values).toMatchObject({
      oauthClientId: 'app-1',
      oauthClientSecret: '',
      oauthScopes: 'read',
      oauthStoredSecret: 'keep',
      hadOAuth: true,
    });
    // Saved unchanged: the stored secret is kept (nothing typed, not forgotten).
    expect(parseServerEntryForm(values)).toMatchObject({
      ok: true,
      input: { oauth: { clientId: 'app-1', clientSecret: '', clearClientSecret: false, scopes: 'read' } },
    });
    expect(parseServerEntryForm({ ...values, oauthStoredSecret: 'forget' })).toMatchObject({
      ok: true,
      input: { oauth: { clearClientSecret: true } },
    });
  });

  it('sends emptied fields of an entry that had OAuth settings, so they are removed', () => {
    expect(
      parseServerEntryForm({ ...remote, hadOAuth: true, oauthClientId: '', oauthScopes: '' }),
    ).toMatchObject({ ok: true, input: { oauth: { clientId: '', scopes: '' } } });
  });

  it('refuses a scope the configuration would refuse, and a secret without a client id', () => {
    const result = parseServerEntryForm({ ...remote, oauthScopes: 'read "quoted"', oauthClientSecret: 's' });
    expect(result).toEqual({
      ok: false,
      errors: {
        oauthScopes: 'Not a valid scope: "quoted"',
        oauthClientSecret: 'A client secret belongs to a client ID: enter the client ID too',
      },
    });
  });
});
