import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodePlatform } from '../../electron/host/node-platform.js';
import { createTestHost, start, value, type TestHost } from '../helpers/host.js';
import { fixtureServer } from '../helpers/servers.js';

// Real bubblewrap around the prober, a fake home with a canary key under /var/tmp (the sandbox's /tmp is private).
const root = mkdtempSync('/var/tmp/mcp-sandbox-settings-');
const home = join(root, 'home');
const dataDir = join(root, 'data');
const SECRET = 'CANARY-SSH-KEY-5e1d';

let t: TestHost;
const savedHome = process.env.HOME;

beforeAll(async () => {
  mkdirSync(join(home, '.ssh'), { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_ed25519'), SECRET);
  mkdirSync(dataDir, { recursive: true });
  process.env.HOME = home;
  const env = {
    HOME: home,
    PROBE_APP_FILE: join(dataDir, 'x'),
    PROBE_OUTSIDE: join(root, 'out'),
    PROBE_PORT: '9',
  };
  t = await createTestHost(
    { prober: { ...fixtureServer('sandbox-prober.mjs'), env } },
    { platform: new NodePlatform(dataDir, undefined, { keychain: null }) },
  );
});

afterAll(async () => {
  await t.dispose();
  process.env.HOME = savedHome;
  rmSync(root, { recursive: true, force: true });
});

const stored = () =>
  (JSON.parse(readFileSync(t.configPath, 'utf8')) as { mcpServers: Record<string, { sandbox?: unknown }> })
    .mcpServers.prober?.sandbox;

describe('a failed tool call of a sandboxed server', () => {
  it('says what the sandbox blocked while it ran', async () => {
    expect((await start(t.api, 'prober')).sandbox?.state).toBe('on');
    const result = value(
      await t.api.callTool({ server: 'prober', tool: 'read_canary', argumentsJson: '{}' }),
    );
    expect(result.isError).toBe(true);
    expect(result.sandboxBlocked).toEqual(['read ~/.ssh/id_ed25519']);
    // A call that succeeds carries nothing.
    const ok = value(await t.api.callTool({ server: 'prober', tool: 'write_state', argumentsJson: '{}' }));
    expect(ok.sandboxBlocked).toBeUndefined();
  });
});

describe('editing the folders and hosts of a server', () => {
  it('saves the lists, restarts the server with them and shows the effective policy', async () => {
    const snapshot = value(
      await t.api.setServerSandboxed({
        name: 'prober',
        allowRead: ['~/.ssh'],
        allowWrite: ['~/notes'],
        allowHosts: ['api.example.com'],
      }),
    );
    expect(stored()).toEqual({
      allowRead: ['~/.ssh'],
      allowWrite: ['~/notes'],
      allowHosts: ['api.example.com'],
    });
    expect(snapshot.sandbox?.policy?.allowRead).toEqual(['~/.ssh']);
    expect(snapshot.sandbox?.policy?.write).toContain('~/notes');
    expect(snapshot.sandbox?.policy?.network.hosts).toContain('api.example.com');
    // Granted: the key is readable now.
    const result = value(
      await t.api.callTool({ server: 'prober', tool: 'read_canary', argumentsJson: '{}' }),
    );
    expect(result.content[0]).toMatchObject({ type: 'text', text: SECRET });
  });

  it('refuses a malformed host or path naming the key, and writes nothing', async () => {
    const before = readFileSync(t.configPath, 'utf8');
    const host = await t.api.setServerSandboxed({
      name: 'prober',
      allowHosts: ['api.example.com', 'foo bar'],
    });
    expect(host).toEqual({
      ok: false,
      error: {
        code: 'config_invalid',
        message:
          'Not saved: allowHosts: "foo bar" is not a host name (write names like api.example.com or *.example.com)',
      },
    });
    const path = await t.api.setServerSandboxed({ name: 'prober', allowWrite: ['relative/dir'] });
    expect(path.ok).toBe(false);
    if (!path.ok)
      expect(path.error.message).toBe(
        'Not saved: allowWrite: "relative/dir" is not a full path (start with / or ~/)',
      );
    expect(readFileSync(t.configPath, 'utf8')).toBe(before);
  });

  it('drops emptied lists and keeps "Run without sandbox" apart from them', async () => {
    value(await t.api.setServerSandboxed({ name: 'prober', sandboxed: false }));
    expect(stored()).toMatchObject({ enabled: false, allowHosts: ['api.example.com'] });
    value(
      await t.api.setServerSandboxed({
        name: 'prober',
        sandboxed: true,
        allowRead: [],
        allowWrite: [],
        allowHosts: [],
      }),
    );
    expect(stored()).toBeUndefined();
  });
});
