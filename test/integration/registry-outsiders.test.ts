import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeInstallLink } from '../../electron/host/install/install-links.js';
import { RegistryClient } from '../../electron/host/install/registry/registry-client.js';
import type { LaunchRequest } from '../../electron/host/platform.js';
import { resolveHostEnvironment } from '../../electron/host/servers/stdio/login-env.js';
import { hostileEntries, registryEntries } from '../fixtures/registry/entries.mjs';
import { startRegistry } from '../fixtures/registry/registry-server.mjs';
import type { LocalRegistry } from '../fixtures/registry/registry-server.mjs';
import { value } from '../helpers/host.js';
import type { TestHost } from '../helpers/host.js';
import { hostsDisposedAfterEach, waitForSettled } from '../helpers/tracked-hosts.js';

/**
 * What outsiders can make the host run (issue 21, findings 3 and 8), through
 * the local registry serving entries that look ordinary while an env
 * variable or a launcher option changes where the package comes from, and
 * through install links: refused in one line, nothing written or spawned;
 * everything else shown with its value, and launcher options named.
 */

let registry: LocalRegistry;
beforeAll(async () => {
  registry = await startRegistry({ entries: [...registryEntries(), ...hostileEntries()] });
});
afterAll(async () => {
  await registry.close();
});
const hosts = hostsDisposedAfterEach();

async function hostWith(launches: LaunchRequest[] = []): Promise<TestHost> {
  const t = await hosts.create(
    {},
    {
      environment: () => resolveHostEnvironment({ read: () => Promise.resolve({}), platform: 'linux' }),
      launchPolicy: (request) => {
        launches.push(request);
        return Promise.resolve(true);
      },
      registry: new RegistryClient({ timeoutMs: 1500 }),
    },
  );
  value(await t.api.updateSettings({ registryUrl: registry.url }));
  return t;
}

async function onlyOption(t: TestHost, name: string) {
  const pending = value(await t.api.prepareRegistryInstall({ name, version: 'latest' }));
  const [option] = pending.options;
  if (!option) throw new Error('no option');
  return { pending, option };
}

describe('finding 3: variables that change what a launcher fetches or a runtime loads', () => {
  it.each([
    ['io.github.example/memory-mirror', 'npm_config_registry'],
    ['io.github.example/weather-index', 'UV_DEFAULT_INDEX'],
  ])('%s is refused (%s), and installing it anyway writes and runs nothing', async (name, variable) => {
    const launches: LaunchRequest[] = [];
    const t = await hostWith(launches);
    const { pending, option } = await onlyOption(t, name);
    expect(option.problem).toContain(
      `It sets ${variable}, which changes how programs load or what they fetch`,
    );
    const forced = await t.api.installServer({ id: pending.id, option: 0, name: 'x' });
    expect(forced.ok).toBe(false);
    expect(launches).toEqual([]);
    expect(JSON.parse(readFileSync(t.configPath, 'utf8'))).toEqual({ mcpServers: {} });
  });

  it.each([
    ['npm_config_registry', 'https://evil.example/'],
    ['NPM_CONFIG_REGISTRY', 'https://evil.example/'],
    ['npm_config_node_options', '--require=/tmp/x.js'],
    ['UV_INDEX_URL', 'https://evil.example/simple'],
    ['PIP_INDEX_URL', 'https://evil.example/simple'],
    ['DOCKER_HOST', 'tcp://evil.example:2375'],
    ['BASH_ENV', '/tmp/x.sh'],
    ['PYTHONPATH', '/tmp/evil'],
    ['JAVA_TOOL_OPTIONS', '-javaagent:/tmp/x.jar'],
  ])('an install link setting %s is refused before anyone is asked', async (variable, setting) => {
    const launches: LaunchRequest[] = [];
    const t = await hostWith(launches);
    const link = makeInstallLink('memory', {
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-memory'],
      env: { [variable]: setting },
    });
    await expect(t.host.installs.receiveLink(link)).rejects.toThrow(
      `This install link cannot be used: it sets ${variable}, which changes how programs load or what they fetch`,
    );
    expect(value(await t.api.listPendingInstalls({}))).toEqual([]);
    expect(launches).toEqual([]);
  });

  it('any other value an entry sets is shown with its value in the option, the review and the launch confirmation', async () => {
    const launches: LaunchRequest[] = [];
    const t = await hostWith(launches);
    const { pending, option } = await onlyOption(t, 'io.github.example/memory-tuned');
    const setting = { name: 'MEMORY_FILE_PATH', value: '/tmp/mcp-host-memory-tuned.json' };
    expect(option.template).toMatchObject({ kind: 'stdio', env: [setting] });
    const request = { id: pending.id, option: 0, name: 'memory' };
    expect(value(await t.api.previewInstall(request)).launch).toMatchObject({ env: [setting] });
    value(await t.api.installServer(request));
    expect(launches).toMatchObject([{ kind: 'stdio', env: [setting] }]);
  }, 60_000);
});

describe('finding 8: launcher options of a registry entry', () => {
  it.each([
    [
      'io.github.example/memory-registry',
      'Its launcher option --registry https://evil.example/ changes where the package comes from',
    ],
    [
      'io.github.example/postgres-host',
      'Its launcher option -v /:/host gives the container access to your computer',
    ],
    [
      'io.github.example/weather-git',
      'Its launcher option --from git+https://evil.example/mcp-weather changes where the package comes from',
    ],
  ])('%s is refused in one line and cannot be installed', async (name, problem) => {
    const launches: LaunchRequest[] = [];
    const t = await hostWith(launches);
    const { pending, option } = await onlyOption(t, name);
    expect(option.problem).toBe(problem);
    expect(option.template).toBeUndefined();
    const forced = await t.api.installServer({ id: pending.id, option: 0, name: 'x' });
    expect(forced.ok).toBe(false);
    expect(launches).toEqual([]);
    expect(JSON.parse(readFileSync(t.configPath, 'utf8'))).toEqual({ mcpServers: {} });
  });

  it('another launcher option is warned about, the label says what runs, and it installs and runs', async () => {
    const launches: LaunchRequest[] = [];
    const t = await hostWith(launches);
    const { pending, option } = await onlyOption(t, 'io.github.example/memory-tuned');
    expect(option.problem).toBeUndefined();
    expect(option.label).toBe(
      'npm package @modelcontextprotocol/server-memory 2026.8.31, run by npx --loglevel warn',
    );
    expect(option.warnings).toEqual([
      'The entry adds options to npx: --loglevel warn. Read them before installing: they run before the package does',
    ]);
    expect(option.template).toMatchObject({
      command: 'npx',
      args: ['-y', '--loglevel', 'warn', '@modelcontextprotocol/server-memory@2026.8.31'],
    });
    value(await t.api.installServer({ id: pending.id, option: 0, name: 'memory' }));
    const snapshot = await waitForSettled(t, 'memory');
    expect(snapshot.error).toBeUndefined();
    expect(snapshot.status).toBe('connected');
    expect(launches).toHaveLength(1);
  }, 90_000);
});
