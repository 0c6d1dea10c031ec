import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { identityParts } from '../../../../../electron/host/consent/server-identity.js';
import { NodePlatform } from '../../../../../electron/host/node-platform.js';
import { sameDestination } from '../../../../../electron/host/secrets/secret-binding.js';
import { FileServerSecrets } from '../../../../../electron/host/secrets/server-secrets.js';
import type { ServerConfig } from '../../../../../shared/model/config.js';
import { tempDir } from '../../../../helpers/servers.js';

const remote = (url: string): ServerConfig => ({ url });
const local = (command: string, ...args: string[]): ServerConfig => ({ command, args });
const same = (a: ServerConfig, b: ServerConfig) => sameDestination(identityParts(a), identityParts(b));

describe('which form edits carry stored secrets (secret-binding.ts, rule 3)', () => {
  it('a remote entry: the same scheme, host and port as the URL parser sees them', () => {
    expect(same(remote('https://api.example.com/mcp'), remote('https://API.example.com:443/v2?x=1'))).toBe(
      true,
    );
    expect(same(remote('https://api.example.com/mcp'), remote('http://api.example.com/mcp'))).toBe(false);
    expect(same(remote('https://api.example.com/mcp'), remote('https://api.example.com:8443/mcp'))).toBe(
      false,
    );
    expect(same(remote('https://api.example.com/mcp'), remote('https://api.example.com.evil.test/mcp'))).toBe(
      false,
    );
    // A host from the environment cannot be compared: only the very same text is the same place.
    expect(same(remote('https://${env:HOST}/mcp'), remote('https://${env:HOST}/mcp'))).toBe(true);
    expect(same(remote('https://${env:HOST}/mcp'), remote('https://${env:OTHER}/mcp'))).toBe(false);
  });

  it('a local entry: the same command, whatever its arguments; never across transports', () => {
    expect(same(local('npx', '-y', 'pkg@1.0.0'), local('npx', '-y', 'pkg@1.1.0', '--verbose'))).toBe(true);
    expect(same(local('npx', '-y', 'pkg'), local('/usr/local/bin/npx', '-y', 'pkg'))).toBe(false);
    expect(same(local('npx'), remote('https://api.example.com/mcp'))).toBe(false);
  });
});

describe('FileServerSecrets', () => {
  const setup = () => {
    const dir = tempDir();
    const path = join(dir, 'server-secrets.json');
    const platform = new NodePlatform(dir, undefined, { keychain: null });
    return {
      path,
      platform,
      open: (config = '/cfg/a.json') => new FileServerSecrets(path, platform, config),
    };
  };
  const entry = local('node', 'server.js');

  it('an install binds its table to the entry it saves; nothing is written before', async () => {
    const { path, open } = setup();
    const secrets = open();
    await secrets.set('svc', { KEY: 'v1' });
    expect(await secrets.get('svc')).toEqual({ KEY: 'v1' });
    expect(await secrets.valuesFor('svc', entry)).toEqual({});
    await secrets.reconcile({ svc: entry });
    expect(await secrets.valuesFor('svc', entry)).toEqual({});
    await secrets.reconcile({ svc: entry }, { name: 'svc' });
    expect(await secrets.valuesFor('svc', entry)).toEqual({ KEY: 'v1' });
    expect(await secrets.get('svc')).toEqual({});
    // Read back by another instance (the next start).
    expect(await open().valuesFor('svc', entry)).toEqual({ KEY: 'v1' });
    expect(await open().valuesFor('svc', local('node', 'other.js'))).toEqual({});
    expect(readFileSync(path, 'utf8')).not.toContain('v1');
  });

  it('a record whose plain key was edited to another server is not used, and goes at the next reconcile', async () => {
    const { path, open } = setup();
    const secrets = open();
    await secrets.set('svc', { KEY: 'v1' });
    await secrets.reconcile({ svc: entry }, { name: 'svc' });
    writeFileSync(path, readFileSync(path, 'utf8').replace('\\"svc\\"', '\\"evil\\"'));
    const reread = open();
    expect(await reread.valuesFor('evil', entry)).toEqual({});
    await reread.reconcile({ svc: entry, evil: entry });
    expect(Object.keys((JSON.parse(readFileSync(path, 'utf8')) as { servers: object }).servers)).toEqual([]);
  });
});
