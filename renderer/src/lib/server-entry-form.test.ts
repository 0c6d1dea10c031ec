import { describe, expect, it } from 'vitest';
import { EMPTY_ENTRY_FORM, entryFormOf, parseServerEntryForm } from './server-entry-form.js';

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
