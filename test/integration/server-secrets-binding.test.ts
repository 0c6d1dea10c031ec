import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { makeInstallLink } from '../../electron/host/install/install-links.js';
import { NodePlatform } from '../../electron/host/node-platform.js';
import { EncryptedRecordsFile } from '../../electron/host/secrets/encrypted-records-file.js';
import type { ServerConfig } from '../../shared/model/config.js';
import { value, waitForSnapshot } from '../helpers/host.js';
import type { TestHost, createTestHost } from '../helpers/host.js';
import { hostsDisposedAfterEach, waitForSettled } from '../helpers/tracked-hosts.js';
import { memoryKeychain } from '../helpers/memory-keychain.js';
import { startHttpFixture } from '../helpers/http-servers.js';
import type { HttpFixture } from '../helpers/http-servers.js';
import { everythingEntry, tempDir } from '../helpers/servers.js';

/**
 * Issue 21, finding 10: stored `${secret:NAME}` values belong to the entry
 * they were entered for (configuration file, name and identity) and are
 * forgotten when that entry goes, by any path. Real host, real config file,
 * real servers (server-everything shows its environment; a node script
 * playing the other program writes whatever it receives to a file).
 */

let fixtures: HttpFixture[] = [];
afterEach(async () => {
  await Promise.all(fixtures.map((f) => f.stop()));
  fixtures = [];
});
// Registered last, so run first: the hosts go before their fixtures stop.
const hosts = hostsDisposedAfterEach();

async function httpFixture(): Promise<HttpFixture> {
  const fixture = await startHttpFixture();
  fixtures.push(fixture);
  return fixture;
}

/** Installs a remote server from an install link whose password input goes to the x-api-key header. */
async function installRemoteWithSecret(t: TestHost, name: string, url: string): Promise<string> {
  const link = makeInstallLink(name, {
    url,
    type: 'streamable-http',
    headers: { 'x-api-key': '${input:key}' },
    inputs: [{ id: 'key', password: true }],
  });
  const pending = await t.host.installs.receiveLink(link);
  value(await t.api.installServer({ id: pending.id, option: 0, name, values: { key: TOKEN } }));
  const connected = await waitForSettled(t, name);
  expect(connected.error).toBeUndefined();
  const entry = entryOf(t, name) as { headers?: Record<string, string> };
  return entry.headers?.['x-api-key'] ?? '';
}

/** Whether any request the fixture received carried the token, on any path or header. */
async function sawToken(fixture: HttpFixture, path?: string): Promise<boolean> {
  const requests = await fixture.requests();
  return requests.some(
    (r) => (path === undefined || r.path === path) && JSON.stringify(r.headers).includes(TOKEN),
  );
}

const TOKEN = 'sk-bound-7f3a9c';

async function host(options: Parameters<typeof createTestHost>[1] = {}, servers = {}): Promise<TestHost> {
  return hosts.create(servers, { launchPolicy: () => Promise.resolve(true), ...options });
}

/** Installs server-everything as `name` from an install link whose password input goes to API_TOKEN. */
async function installWithSecret(t: TestHost, name: string): Promise<string> {
  const link = makeInstallLink(name, {
    command: process.execPath,
    args: [everythingEntry, 'stdio'],
    env: { API_TOKEN: '${input:token}' },
    inputs: [{ id: 'token', password: true }],
  });
  const pending = await t.host.installs.receiveLink(link);
  value(await t.api.installServer({ id: pending.id, option: 0, name, values: { token: TOKEN } }));
  const connected = await waitForSettled(t, name);
  expect(connected.error).toBeUndefined();
  expect(await environmentOf(t, name)).toContain(TOKEN);
  return entryOf(t, name).env?.API_TOKEN ?? '';
}

async function environmentOf(t: TestHost, name: string): Promise<string> {
  const result = value(await t.api.callTool({ server: name, tool: 'get-env', argumentsJson: '{}' }));
  return JSON.stringify(result.content);
}

function entryOf(t: TestHost, name: string): { env?: Record<string, string> } {
  const file = JSON.parse(readFileSync(t.configPath, 'utf8')) as { mcpServers: Record<string, ServerConfig> };
  return file.mcpServers[name] as { env?: Record<string, string> };
}

/** The record keys of server-secrets.json (which servers have a stored table). */
function storedKeys(dataDir: string): string[] {
  const path = join(dataDir, 'server-secrets.json');
  if (!existsSync(path)) return [];
  const file = JSON.parse(readFileSync(path, 'utf8')) as { servers: Record<string, string> };
  return Object.keys(file.servers);
}

/** Another program under the same name: it writes whatever API_TOKEN it was given to `marker`, then exits. */
function otherProgram(marker: string, reference: string): ServerConfig {
  return {
    command: process.execPath,
    args: [
      '-e',
      `require('node:fs').writeFileSync(${JSON.stringify(marker)}, String(process.env.API_TOKEN))`,
    ],
    env: { API_TOKEN: reference },
  };
}

async function saveRaw(t: TestHost, servers: Record<string, ServerConfig>): Promise<void> {
  value(await t.api.saveRawConfig({ text: `${JSON.stringify({ mcpServers: servers }, null, 2)}\n` }));
}

/** The other program's start fails with the app's missing-secret error, and it never ran. */
async function expectNotInherited(t: TestHost, name: string, marker: string, from: number): Promise<void> {
  const failed = await waitForSnapshot(t, name, (s) => s.status === 'failed', `${name} failing`, from);
  expect(failed.error).toMatch(
    /uses \$\{secret:[A-Za-z0-9_]+\}, but no secret [A-Za-z0-9_]+ is stored for it/,
  );
  expect(failed.error).not.toContain(TOKEN);
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(existsSync(marker)).toBe(false);
}

describe('stored secrets belong to the entry they were entered for', () => {
  it('deleted in the raw editor: forgotten from disk, and the same name re-added as another command does not get them', async () => {
    const t = await host();
    const reference = await installWithSecret(t, 'svc');
    expect(storedKeys(t.dataDir)).toHaveLength(1);

    await saveRaw(t, {});
    expect(storedKeys(t.dataDir)).toEqual([]);

    const marker = join(tempDir(), 'received.txt');
    const from = t.events.length;
    await saveRaw(t, { svc: otherProgram(marker, reference) });
    await expectNotInherited(t, 'svc', marker, from);
  }, 60_000);

  it('renamed in the raw editor: the new name does not get them, the table goes, and the old name re-added elsewhere does not either', async () => {
    const t = await host();
    const reference = await installWithSecret(t, 'svc');
    const entry = entryOf(t, 'svc') as ServerConfig;

    let from = t.events.length;
    await saveRaw(t, { renamed: entry });
    const failed = await waitForSnapshot(t, 'renamed', (s) => s.status === 'failed', 'renamed failing', from);
    expect(failed.error).toMatch(/no secret [A-Za-z0-9_]+ is stored for it/);
    expect(storedKeys(t.dataDir)).toEqual([]);

    const marker = join(tempDir(), 'received.txt');
    from = t.events.length;
    await saveRaw(t, { renamed: entry, svc: otherProgram(marker, reference) });
    await expectNotInherited(t, 'svc', marker, from);
  }, 60_000);

  it('removed from the file by another program: kept while the file is invalid, forgotten from disk at the reload that sees it gone', async () => {
    const keychain = memoryKeychain();
    const dataDir = tempDir();
    const t = await host({ platform: new NodePlatform(dataDir, () => Promise.resolve(true), { keychain }) });
    await installWithSecret(t, 'svc');
    expect(storedKeys(dataDir)).toHaveLength(1);
    expect(keychain.entries.size).toBe(1);

    // Half-written by the other program: its entries are unknown, nothing is forgotten.
    const text = readFileSync(t.configPath, 'utf8');
    writeFileSync(t.configPath, '{ "mcpServers": ');
    await t.api.reloadConfig({});
    expect(storedKeys(dataDir)).toHaveLength(1);
    writeFileSync(t.configPath, text);
    const from = t.events.length;
    value(await t.api.reloadConfig({}));
    const back = await waitForSettled(t, 'svc', 'svc', from);
    expect(back.error).toBeUndefined();
    expect(await environmentOf(t, 'svc')).toContain(TOKEN);

    // The entry removed by the other program.
    writeFileSync(t.configPath, JSON.stringify({ mcpServers: {} }, null, 2));
    value(await t.api.reloadConfig({}));
    expect(storedKeys(dataDir)).toEqual([]);
    expect(keychain.entries.size).toBe(0);
  }, 60_000);

  it('the edit form: a rename and a new argument keep them; another command forgets them', async () => {
    const t = await host();
    const reference = await installWithSecret(t, 'svc');

    // Same program, renamed, one more argument (server-everything ignores it).
    const edited = value(
      await t.api.saveServer({
        originalName: 'svc',
        input: {
          transport: 'stdio',
          name: 'svc2',
          command: process.execPath,
          args: [everythingEntry, 'stdio', '--extra'],
          env: { API_TOKEN: reference },
        },
      }),
    );
    expect(edited.error).toBeUndefined();
    expect(await environmentOf(t, 'svc2')).toContain(TOKEN);
    expect(storedKeys(t.dataDir)).toHaveLength(1);
    expect(storedKeys(t.dataDir)[0]).toContain('svc2');

    // Another command under the same name: the values do not go with it.
    const marker = join(tempDir(), 'received.txt');
    const other = otherProgram(marker, reference) as { command: string; args: string[] };
    const from = t.events.length;
    const node = join(tempDir(), 'node');
    symlinkSync(process.execPath, node);
    await t.api.saveServer({
      originalName: 'svc2',
      input: {
        transport: 'stdio',
        name: 'svc2',
        command: node,
        args: other.args,
        env: { API_TOKEN: reference },
      },
    });
    await expectNotInherited(t, 'svc2', marker, from);
    expect(storedKeys(t.dataDir)).toEqual([]);
  }, 60_000);

  it('remote: deleted in the raw editor, the same name re-added with another URL does not send the header value there', async () => {
    const t = await host();
    const first = await httpFixture();
    const other = await httpFixture();
    const reference = await installRemoteWithSecret(t, 'api', `${first.origin}/mcp`);
    expect(await sawToken(first)).toBe(true);

    await saveRaw(t, {});
    expect(storedKeys(t.dataDir)).toEqual([]);

    const from = t.events.length;
    await saveRaw(t, {
      api: { type: 'streamable-http', url: `${other.origin}/mcp`, headers: { 'x-api-key': reference } },
    });
    const failed = await waitForSnapshot(t, 'api', (s) => s.status === 'failed', 'api failing', from);
    expect(failed.error).toMatch(
      /header x-api-key uses \$\{secret:[A-Za-z0-9_]+\}, but no secret [A-Za-z0-9_]+ is stored for it/,
    );
    expect(await sawToken(other)).toBe(false);
  }, 60_000);

  it('remote, the edit form: another path on the same site keeps the value; another site forgets it', async () => {
    const t = await host();
    const first = await httpFixture();
    const other = await httpFixture();
    const reference = await installRemoteWithSecret(t, 'api', `${first.origin}/mcp`);
    const edit = (url: string) =>
      t.api.saveServer({
        originalName: 'api',
        input: {
          transport: 'http',
          name: 'api',
          type: 'streamable-http',
          url,
          headers: { 'x-api-key': reference },
        },
      });

    const samePlace = value(await edit(`${first.origin}/mcp-2025-03-26`));
    expect(samePlace.error).toBeUndefined();
    expect(samePlace.status).toBe('connected');
    expect(await sawToken(first, '/mcp-2025-03-26')).toBe(true);

    const elsewhere = value(await edit(`${other.origin}/mcp`));
    expect(elsewhere.status).toBe('failed');
    expect(elsewhere.error).toMatch(/no secret [A-Za-z0-9_]+ is stored for it/);
    expect(await sawToken(other)).toBe(false);
    expect(storedKeys(t.dataDir)).toEqual([]);
  }, 60_000);

  it('tables stored by name by an earlier version are bound to the entry present at the first load; the others are forgotten', async () => {
    const keychain = memoryKeychain();
    const dataDir = tempDir();
    const platform = new NodePlatform(dataDir, () => Promise.resolve(true), { keychain });
    // What an earlier version wrote: one table per server name.
    const legacy = new EncryptedRecordsFile(
      join(dataDir, 'server-secrets.json'),
      platform,
      z.record(z.string(), z.string()),
    );
    await legacy.write(
      new Map([
        ['svc', { API_TOKEN: TOKEN }],
        ['gone', { API_TOKEN: 'sk-of-a-removed-server' }],
      ]),
    );
    expect(keychain.entries.size).toBe(2);
    const entry: ServerConfig = {
      command: process.execPath,
      args: [everythingEntry, 'stdio'],
      env: { API_TOKEN: '${secret:API_TOKEN}' },
    };
    const t = await host({ platform }, { svc: entry });

    // Bound to the entry present now; the table of a server no longer configured is gone.
    expect(storedKeys(dataDir)).toHaveLength(1);
    expect(storedKeys(dataDir)[0]).toContain('svc');
    expect(keychain.entries.size).toBe(1);
    value(await t.api.startServer({ name: 'svc' }));
    expect(await environmentOf(t, 'svc')).toContain(TOKEN);

    // Bound, not by name: another program under the name does not get it.
    const marker = join(tempDir(), 'received.txt');
    const from = t.events.length;
    await saveRaw(t, { svc: otherProgram(marker, '${secret:API_TOKEN}') });
    await expectNotInherited(t, 'svc', marker, from);
  }, 60_000);

  it('a host on another configuration file (the CLI with --config) neither uses nor forgets them', async () => {
    const dataDir = tempDir();
    const platform = new NodePlatform(dataDir, () => Promise.resolve(true), { keychain: null });
    const t = await host({ platform });
    const reference = await installWithSecret(t, 'svc');
    const entry = entryOf(t, 'svc') as ServerConfig;

    const other = await host({ platform }, { svc: { ...entry, env: { API_TOKEN: reference } } });
    expect(other.configPath).not.toBe(t.configPath);
    const failed = value(await other.api.startServer({ name: 'svc' }));
    expect(failed.error).toMatch(/no secret [A-Za-z0-9_]+ is stored for it/);
    expect(storedKeys(dataDir)).toHaveLength(1);
  }, 60_000);
});
