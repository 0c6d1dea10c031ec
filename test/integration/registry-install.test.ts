import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RegistryClient } from '../../electron/host/install/registry/registry-client.js';
import { makeInstallLink } from '../../electron/host/install/install-links.js';
import { resolveHostEnvironment } from '../../electron/host/servers/stdio/login-env.js';
import type { HostEnvironment } from '../../electron/host/servers/stdio/login-env.js';
import type { LaunchRequest } from '../../electron/host/platform.js';
import type { PendingInstall } from '../../shared/model/registry.js';
import { startRegistry } from '../fixtures/registry/registry-server.mjs';
import type { LocalRegistry } from '../fixtures/registry/registry-server.mjs';
import { value, waitForSnapshot } from '../helpers/host.js';
import type { TestHost } from '../helpers/host.js';
import { hostsDisposedAfterEach, waitForSettled } from '../helpers/tracked-hosts.js';
import { tempDir } from '../helpers/servers.js';
import { startOAuthStack } from '../helpers/oauth-stack.js';

let registry: LocalRegistry;

beforeAll(async () => {
  registry = await startRegistry();
});
afterAll(async () => {
  await registry.close();
});
// Registered before the hook below, so run after it: the registry is reset, then the hosts go.
const hosts = hostsDisposedAfterEach();
afterEach(() => {
  registry.setMode('ok');
});

const processEnvironment = (): Promise<HostEnvironment> =>
  resolveHostEnvironment({ read: () => Promise.resolve({}), platform: 'linux' });

async function hostWith(
  options: {
    launchPolicy?: (r: LaunchRequest) => Promise<boolean>;
    environment?: () => Promise<HostEnvironment>;
  } = {},
): Promise<TestHost> {
  const t = await hosts.create(
    {},
    {
      environment: options.environment ?? processEnvironment,
      launchPolicy: options.launchPolicy,
      registry: new RegistryClient({ timeoutMs: 1500 }),
    },
  );
  value(await t.api.updateSettings({ registryUrl: registry.url }));
  return t;
}

const EVERYTHING = 'io.github.modelcontextprotocol/server-everything';

describe('the MCP registry', () => {
  it('searches and pages with the cursor; version=latest only', async () => {
    const t = await hostWith();
    const first = value(await t.api.searchRegistry({ query: '' }));
    expect(first.entries).toHaveLength(30);
    expect(first.nextCursor).toBeDefined();
    expect(first.registryUrl).toBe(registry.url);
    const second = value(await t.api.searchRegistry({ query: '', cursor: first.nextCursor }));
    expect(second.nextCursor).toBeUndefined();
    const names = [...first.entries, ...second.entries].map((e) => e.name);
    expect(new Set(names).size).toBe(names.length);
    // The older version of server-memory is not "latest" and is not listed.
    expect(names.filter((n) => n === 'io.github.modelcontextprotocol/server-memory')).toHaveLength(1);
    expect(registry.requests().at(-1)).toContain('version=latest');

    const weather = value(await t.api.searchRegistry({ query: 'weather' }));
    expect(weather.entries.map((e) => e.name)).toEqual(['io.github.example/weather']);
    expect(weather.entries[0]).toMatchObject({
      title: 'Weather',
      version: '0.4.1',
      repositoryUrl: 'https://github.com/example/mcp-weather',
      kinds: ['pypi'],
    });
  });

  it('a registry answering garbage, a web page, 500, too much or nothing is one clear line each', async () => {
    const t = await hostWith();
    const expectations: [Parameters<LocalRegistry['setMode']>[0], RegExp][] = [
      ['garbage', /answered with something that is not a registry answer \(servers: /],
      ['html', /answered with something that is not JSON/],
      ['error', /answered 500/],
      ['huge', /sent an answer larger than 4 MB/],
      ['timeout', /did not answer within 2 s/],
    ];
    for (const [mode, message] of expectations) {
      registry.setMode(mode);
      const result = await t.api.searchRegistry({ query: '' });
      expect(result.ok, mode).toBe(false);
      if (result.ok) continue;
      expect(result.error.message).toMatch(message);
      expect(result.error.message).toContain(registry.url);
      expect(result.error.message).not.toContain('\n');
    }
    registry.setMode('ok');
    expect(value(await t.api.searchRegistry({ query: '' })).entries.length).toBeGreaterThan(0);
    // Nobody listening at all.
    const gone = await startRegistry();
    await gone.close();
    value(await t.api.updateSettings({ registryUrl: gone.url }));
    const refused = await t.api.searchRegistry({ query: '' });
    expect(!refused.ok && refused.error.message).toBe(
      `Cannot reach the registry at ${gone.url}: ECONNREFUSED`,
    );
  });

  it('an entry whose fields break the schema is left out of the page and counted', async () => {
    const entries = [
      { server: { name: 'a.b/ok', description: 'fine', version: '1.0.0' } },
      { server: { name: 'a.b/bad', description: 'x'.repeat(10_000), version: '1.0.0' } },
      { server: { name: 'a.b/worse', version: { nope: true } } },
      'not even an object',
    ];
    const local = await startRegistry({ entries });
    try {
      const page = await new RegistryClient().search(local.url, '', undefined);
      expect(page.page.entries.map((e) => e.name)).toEqual(['a.b/ok']);
      expect(page.page.skipped).toBe(3);
    } finally {
      await local.close();
    }
  });

  it('the registry URL setting takes https, or http only on this computer', async () => {
    const t = await hostWith();
    const plain = await t.api.updateSettings({ registryUrl: 'http://registry.example.com' });
    expect(!plain.ok && plain.error.message).toMatch(/must use https:\/\//);
    const js = await t.api.updateSettings({ registryUrl: 'javascript:alert(1)' });
    expect(js.ok).toBe(false);
    expect(
      value(await t.api.updateSettings({ registryUrl: 'https://registry.example.com/' })).registryUrl,
    ).toBe('https://registry.example.com');
  });
});

describe('installing a registry entry', () => {
  it('npm entry with a secret env variable: the value is stored encrypted, the entry refers to it, the server connects and sees it', async () => {
    const t = await hostWith();
    const pending = value(await t.api.prepareRegistryInstall({ name: EVERYTHING, version: 'latest' }));
    expect(pending).toMatchObject({ source: 'registry', suggestedName: 'server-everything', warnings: [] });
    const option = pending.options[0];
    expect(option).toMatchObject({ kind: 'npm', runtime: { command: 'npx', found: true } });
    expect(option?.template).toEqual({
      kind: 'stdio',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-everything@2026.8.31', 'stdio'],
      envNames: ['EVERYTHING_API_KEY', 'EVERYTHING_REGION'],
      env: [
        { name: 'EVERYTHING_API_KEY', value: '<EVERYTHING_API_KEY>' },
        { name: 'EVERYTHING_REGION', value: '<EVERYTHING_REGION>' },
      ],
    });
    const request = {
      id: pending.id,
      option: 0,
      name: 'everything',
      values: { 'env:EVERYTHING_API_KEY': 'sk-everything-4242', 'env:EVERYTHING_REGION': 'us' },
    };
    const preview = value(await t.api.previewInstall(request));
    expect(preview.launch).toEqual({
      kind: 'stdio',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-everything@2026.8.31', 'stdio'],
      envNames: ['EVERYTHING_API_KEY', 'EVERYTHING_REGION'],
      // Values are shown; the secret the person typed is masked.
      env: [
        { name: 'EVERYTHING_API_KEY', value: '••••••' },
        { name: 'EVERYTHING_REGION', value: 'us' },
      ],
    });
    expect(preview.secrets).toEqual(['EVERYTHING_API_KEY']);

    value(await t.api.installServer(request));
    const connected = await waitForSettled(t, 'everything');
    expect(connected.error).toBeUndefined();
    expect(connected.status).toBe('connected');

    const file = readFileSync(t.configPath, 'utf8');
    expect(file).toContain('${secret:ENV_EVERYTHING_API_KEY}');
    expect(file).not.toContain('sk-everything-4242');
    const stored = readFileSync(join(t.dataDir, 'server-secrets.json'), 'utf8');
    expect(stored).not.toContain('sk-everything-4242');

    // The server got the value itself in its environment.
    const env = value(await t.api.callTool({ server: 'everything', tool: 'get-env', argumentsJson: '{}' }));
    const text = JSON.stringify(env.content);
    expect(text).toContain('sk-everything-4242');
    expect(text).toContain('EVERYTHING_REGION');

    // Done: it is no longer pending. A second install of the same id is refused.
    const again = await t.api.installServer(request);
    expect(!again.ok && again.error.code).toBe('not_found');

    // Removing the server forgets its secrets.
    value(await t.api.removeServer({ name: 'everything' }));
    expect(readFileSync(join(t.dataDir, 'server-secrets.json'), 'utf8')).not.toContain('everything');
  }, 60_000);

  it('a name clash is refused with a free name suggested', async () => {
    const t = await hostWith({ launchPolicy: () => Promise.resolve(true) });
    const memory = 'io.github.modelcontextprotocol/server-memory';
    const first = value(await t.api.prepareRegistryInstall({ name: memory, version: 'latest' }));
    value(await t.api.installServer({ id: first.id, option: 0, name: 'server-memory' }));
    const second = value(await t.api.prepareRegistryInstall({ name: memory, version: 'latest' }));
    expect(second.suggestedName).toBe('server-memory-2');
    const clash = await t.api.installServer({ id: second.id, option: 0, name: 'server-memory' });
    expect(!clash.ok && clash.error).toEqual({
      code: 'conflict',
      message: 'A server named "server-memory" already exists; use another name, such as "server-memory-2"',
    });
  }, 60_000);

  it('a runtime the machine lacks is named before anything is spawned', async () => {
    const noUv = (): Promise<HostEnvironment> =>
      Promise.resolve({ all: { PATH: tempDir(), HOME: tempDir() }, source: 'test' });
    const launches: LaunchRequest[] = [];
    const t = await hostWith({
      environment: noUv,
      launchPolicy: (r) => {
        launches.push(r);
        return Promise.resolve(true);
      },
    });
    const pending = value(
      await t.api.prepareRegistryInstall({ name: 'io.github.example/weather', version: '0.4.1' }),
    );
    expect(pending.options[0]).toMatchObject({
      runtime: { command: 'uvx', found: false },
      problem: 'Needs uv (uvx), not found on this machine',
    });
    const refused = await t.api.installServer({
      id: pending.id,
      option: 0,
      name: 'weather',
      values: { 'env:OPENWEATHER_API_KEY': 'k' },
    });
    expect(!refused.ok && refused.error.message).toBe('Needs uv (uvx), not found on this machine');
    expect(launches).toEqual([]);
    expect(JSON.parse(readFileSync(t.configPath, 'utf8'))).toEqual({ mcpServers: {} });
  });

  it('types it cannot run are one line, and the renderer cannot install what the host did not prepare', async () => {
    const t = await hostWith();
    const nuget = value(
      await t.api.prepareRegistryInstall({ name: 'io.github.example/dotnet-tools', version: 'latest' }),
    );
    const refused = await t.api.installServer({ id: nuget.id, option: 0, name: 'dotnet' });
    expect(!refused.ok && refused.error.message).toBe(
      'NuGet packages (.NET tools) cannot be installed by this app yet',
    );
    const made = await t.api.installServer({ id: 'made-up-install-id', option: 0, name: 'x' });
    expect(!made.ok && made.error.code).toBe('not_found');
    const missing = await t.api.prepareRegistryInstall({
      name: 'io.github.example/nothing',
      version: 'latest',
    });
    expect(!missing.ok && missing.error).toMatchObject({ code: 'not_found' });
  });
});

describe('installing a remote entry', () => {
  it('a remote server that asks for OAuth is installed by URL and waits for Sign in (no browser opened by itself)', async () => {
    const stack = await startOAuthStack();
    const local = await startRegistry({
      entries: [
        {
          server: {
            name: 'com.example/secured',
            description: 'A remote server behind OAuth',
            version: '1.0.0',
            remotes: [{ type: 'streamable-http', url: stack.mcpUrl }],
          },
        },
      ],
    });
    try {
      const t = await hosts.create({}, { environment: processEnvironment });
      value(await t.api.updateSettings({ registryUrl: local.url }));
      const pending = value(
        await t.api.prepareRegistryInstall({ name: 'com.example/secured', version: '1.0.0' }),
      );
      expect(pending.options[0]).toMatchObject({ kind: 'remote', template: { url: stack.mcpUrl } });
      value(await t.api.installServer({ id: pending.id, option: 0, name: 'secured' }));
      const waiting = await waitForSnapshot(
        t,
        'secured',
        (s) => s.status !== 'connecting' && s.status !== 'stopped',
      );
      expect(waiting.status).toBe('sign-in-required');
      expect(JSON.parse(readFileSync(t.configPath, 'utf8'))).toEqual({
        mcpServers: { secured: { type: 'streamable-http', url: stack.mcpUrl } },
      });
    } finally {
      await local.close();
      await stack.close();
    }
  });
});

describe('install links', () => {
  // The marker's folder is an argument: a folder the person confirms with the command, so the
  // sandbox lets the command write there (and nowhere else).
  const markerArgs = (marker: string): string[] => [
    '-e',
    `require('node:fs').writeFileSync(require('node:path').join(process.argv[1], ${JSON.stringify(basename(marker))}), 'ran')`,
    dirname(marker),
  ];

  function markerLink(marker: string): string {
    return makeInstallLink('marker', { command: process.execPath, args: markerArgs(marker) });
  }

  it('a link is announced to the pages and never runs unless the person confirms: declined, dismissed or left alone', async () => {
    const launches: LaunchRequest[] = [];
    const t = await hostWith({
      launchPolicy: (r) => {
        launches.push(r);
        return Promise.resolve(false);
      },
    });
    const marker = join(tempDir(), 'ran.txt');
    const pending = await t.host.installs.receiveLink(markerLink(marker));
    const announced = t.events.find((e) => e.event === 'installRequested')?.payload as PendingInstall;
    expect(announced.id).toBe(pending.id);
    expect(announced.options[0]?.template).toEqual({
      kind: 'stdio',
      command: process.execPath,
      args: markerArgs(marker),
      envNames: [],
      env: [],
    });
    expect(announced.warnings[0]).toMatch(/not a package launcher/);
    expect(value(await t.api.listPendingInstalls({})).map((p) => p.id)).toEqual([pending.id]);

    // The launch confirmation says no: nothing written, nothing spawned.
    const declined = await t.api.installServer({ id: pending.id, option: 0, name: 'marker' });
    expect(!declined.ok && declined.error.code).toBe('denied');
    expect(launches).toHaveLength(1);
    expect(JSON.parse(readFileSync(t.configPath, 'utf8'))).toEqual({ mcpServers: {} });

    // Closed without installing.
    value(await t.api.dismissInstall({ id: pending.id }));
    expect(t.events.some((e) => e.event === 'installResolved')).toBe(true);
    expect(value(await t.api.listPendingInstalls({}))).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(existsSync(marker)).toBe(false);
  });

  it('a confirmed link installs its exact command, and a bad link is one line', async () => {
    const t = await hostWith({ launchPolicy: () => Promise.resolve(true) });
    const marker = join(tempDir(), 'ran.txt');
    const pending = await t.host.installs.receiveLink(markerLink(marker));
    await t.api.installServer({ id: pending.id, option: 0, name: 'marker' });
    // The command is not an MCP server: it runs (writes the marker) and exits.
    await waitForSnapshot(t, 'marker', (s) => s.status === 'failed' || s.status === 'connecting');
    for (let i = 0; i < 50 && !existsSync(marker); i++) await new Promise((r) => setTimeout(r, 100));
    expect(existsSync(marker)).toBe(true);

    await expect(t.host.installs.receiveLink('mcp-host://install?config=%%%')).rejects.toThrow(
      /^This install link cannot be used: /,
    );
  });

  it('a registry link prepares the registry entry', async () => {
    const t = await hostWith();
    const pending = await t.host.installs.receiveLink(
      'mcp-host://install?registry=io.github.modelcontextprotocol/server-memory&version=2026.8.31',
    );
    expect(pending).toMatchObject({
      source: 'link',
      origin: `an install link (entry from ${registry.url})`,
      entryName: 'io.github.modelcontextprotocol/server-memory',
      version: '2026.8.31',
    });
  });
});
