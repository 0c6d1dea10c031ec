import { describe, expect, it } from 'vitest';
import { checkConfigText } from '../../../../../../shared/model/config-text.js';
import {
  inputOf,
  launchOf,
  mergeInput,
  needsLaunchConsent,
} from '../../../../../../electron/host/servers/config/server-config-edit.js';
import { replaceEntry } from '../../../../../../electron/host/servers/config/config-store.js';
import { ServerInputSchema } from '../../../../../../shared/model/server-input.js';

describe('checkConfigText', () => {
  it('accepts a valid file', () => {
    const check = checkConfigText('{"mcpServers": {"a": {"command": "node"}}}');
    expect(check.ok).toBe(true);
  });

  it('places a syntax error on its line', () => {
    const text = '{\n  "mcpServers": {\n    "a": { "command": "node" },,\n  }\n}';
    const check = checkConfigText(text);
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.issues).toHaveLength(1);
    expect(check.issues[0]?.message).toMatch(/^Invalid JSON/);
    expect(check.issues[0]?.line).toBe(3);
  });

  it('reports each schema error with its key path and line', () => {
    const text = [
      '{',
      '  "mcpServers": {',
      '    "ok": { "command": "node" },',
      '    "files": {',
      '      "command": "npx",',
      '      "args": ["-y", 42]',
      '    },',
      '    "web": { "url": "ftp://x" },',
      '    "tools": { "command": "x", "disabledTools": "all" }',
      '  }',
      '}',
    ].join('\n');
    const check = checkConfigText(text);
    expect(check.ok).toBe(false);
    if (check.ok) return;
    const byPath = Object.fromEntries(check.issues.map((i) => [i.path, i.line]));
    expect(byPath['mcpServers.files.args.1']).toBe(6);
    expect(byPath['mcpServers.tools.disabledTools']).toBe(9);
    expect(check.issues.some((i) => i.path.startsWith('mcpServers.web') && i.line === 8)).toBe(true);
  });
});

describe('editing an entry', () => {
  it('keeps the other keys and drops the old transport when switching to remote', () => {
    const previous = {
      command: 'node',
      args: ['a'],
      env: { K: 'v' },
      disabledTools: ['x'],
      timeout: 5000,
      custom: 1,
    };
    const input = ServerInputSchema.parse({
      transport: 'http',
      name: 'n',
      url: 'https://example.com/mcp',
      type: 'sse',
    });
    expect(mergeInput(previous, input)).toEqual({
      disabledTools: ['x'],
      timeout: 5000,
      custom: 1,
      type: 'sse',
      url: 'https://example.com/mcp',
    });
  });

  it('round-trips through the form shape', () => {
    const config = { command: 'node', args: ['a', 'b'], env: { K: 'v' }, cwd: '/tmp' };
    const input = inputOf('s', config);
    expect(input).toEqual({
      transport: 'stdio',
      name: 's',
      command: 'node',
      args: ['a', 'b'],
      env: { K: 'v' },
      cwd: '/tmp',
    });
    expect(mergeInput(config, input)).toEqual(config);
  });

  it('asks again only when what is launched changes, env values included', () => {
    const config = { command: 'node', args: ['a'], env: { K: 'v', J: 'w' } };
    expect(needsLaunchConsent(undefined, config)).toBe(true);
    expect(needsLaunchConsent(config, { ...config, disabledTools: ['x'] })).toBe(false);
    expect(needsLaunchConsent(config, { ...config, env: { J: 'w', K: 'v' } })).toBe(false);
    expect(needsLaunchConsent(config, { ...config, env: { K: 'other value', J: 'w' } })).toBe(true);
    expect(needsLaunchConsent(config, { ...config, args: ['b'] })).toBe(true);
    expect(needsLaunchConsent(config, { ...config, env: { K: 'v', J: 'w', LD: '1' } })).toBe(true);
    expect(needsLaunchConsent(config, { url: 'https://example.com' })).toBe(true);
  });

  it('asks for a new or changed remote destination or headers, not for other keys', () => {
    const remote = { url: 'https://a.example/mcp', headers: { Authorization: 'Bearer ${env:TOKEN}' } };
    expect(needsLaunchConsent(undefined, remote)).toBe(true);
    expect(needsLaunchConsent(remote, { ...remote, timeout: 5000 })).toBe(false);
    expect(needsLaunchConsent(remote, { ...remote, url: 'https://b.example/mcp' })).toBe(true);
    expect(needsLaunchConsent(remote, { ...remote, headers: { Authorization: '${env:AWS_SECRET}' } })).toBe(
      true,
    );
    expect(
      launchOf('r', { url: 'https://a.example:8443/${env:PATH_PART}', headers: remote.headers }),
    ).toEqual({
      kind: 'remote',
      name: 'r',
      url: 'https://a.example:8443/${env:PATH_PART}',
      destination: 'a.example:8443',
      headerNames: ['Authorization'],
      headers: [{ name: 'Authorization', value: 'Bearer ${env:TOKEN}' }],
      sentVariables: ['PATH_PART', 'TOKEN'],
    });
  });

  it('names the variables OAuth sends to authorization servers, and asks again when they change', () => {
    const remote = {
      url: 'https://a.example/mcp',
      oauth: {
        grant: 'enterprise' as const,
        clientId: 'app',
        clientSecret: '${env:APP_SECRET}',
        enterprise: { issuer: 'https://idp.example', clientId: 'idp-app', idToken: '${env:ID_TOKEN}' },
      },
    };
    expect(launchOf('r', remote)).toMatchObject({ sentVariables: ['APP_SECRET', 'ID_TOKEN'] });
    expect(
      needsLaunchConsent(remote, {
        ...remote,
        oauth: { ...remote.oauth, clientSecret: '${env:AWS_SECRET}' },
      }),
    ).toBe(true);
    expect(
      needsLaunchConsent(remote, {
        ...remote,
        oauth: {
          ...remote.oauth,
          enterprise: { ...remote.oauth.enterprise, issuer: 'https://evil.example' },
        },
      }),
    ).toBe(true);
    expect(needsLaunchConsent(remote, { ...remote, oauth: { ...remote.oauth, scopes: ['read'] } })).toBe(
      false,
    );
    expect(
      launchOf('w', {
        url: 'https://a.example/mcp',
        oauth: { grant: 'jwt_bearer', assertion: '${env:WORKLOAD_JWT}' },
      }),
    ).toMatchObject({ sentVariables: ['WORKLOAD_JWT'] });
  });

  it('renames in place', () => {
    const table = { a: { command: 'a' }, b: { command: 'b' }, c: { command: 'c' } };
    expect(Object.keys(replaceEntry(table, 'b', 'z', { command: 'z' }))).toEqual(['a', 'z', 'c']);
    expect(Object.keys(replaceEntry(table, undefined, 'd', { command: 'd' }))).toEqual(['a', 'b', 'c', 'd']);
  });

  it('validates remote input: http(s) URLs and header names only', () => {
    expect(
      ServerInputSchema.safeParse({ transport: 'http', name: 'r', url: 'file:///etc/passwd' }).success,
    ).toBe(false);
    expect(
      ServerInputSchema.safeParse({
        transport: 'http',
        name: 'r',
        url: 'https://x.dev',
        headers: { 'Bad Header': 'v' },
      }).success,
    ).toBe(false);
    expect(
      ServerInputSchema.safeParse({ transport: 'stdio', name: 'r', command: 'x', env: { LD_PRELOAD: 'a' } })
        .success,
    ).toBe(false);
  });
});
