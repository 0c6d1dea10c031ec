import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodePlatform } from '../../electron/host/node-platform.js';
import { STATE_FOLDER_NAME } from '../../electron/host/servers/stdio/sandbox/sandbox-launch.js';
import { createTestHost, start, value, type TestHost } from '../helpers/host.js';
import { fixtureServer } from '../helpers/servers.js';

// Real bubblewrap around a real server. The fake home and the app's data folder live under /var/tmp,
// not /tmp: the sandbox gives each server a private /tmp, which would hide them whatever the policy.
const root = mkdtempSync('/var/tmp/mcp-sandbox-test-');
const home = join(root, 'home');
const dataDir = join(root, 'data');
const outside = join(root, 'outside.txt');
const appFile = join(dataDir, 'oauth-tokens.json');
const SECRET = 'CANARY-SSH-KEY-7f3a';
const APP_SECRET = 'CANARY-APP-TOKEN-91bc';

let t: TestHost;
let canary: Server;
let port = 0;
let loopbackConnections = 0;
const savedHome = process.env.HOME;

beforeAll(async () => {
  mkdirSync(join(home, '.ssh'), { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_ed25519'), SECRET);
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(appFile, APP_SECRET);
  canary = createServer((socket) => {
    loopbackConnections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
  const address = canary.address();
  port = typeof address === 'object' && address ? address.port : 0;
  // The policy hides the secrets of the person's home: here, the fake one.
  process.env.HOME = home;
  const prober = fixtureServer('sandbox-prober.mjs');
  t = await createTestHost(
    {
      prober: {
        ...prober,
        env: {
          HOME: home,
          PROBE_APP_FILE: appFile,
          PROBE_OUTSIDE: outside,
          PROBE_PORT: String(port),
          PROBE_HOST: 'undeclared.example.com',
        },
      },
      unconfined: {
        ...prober,
        env: { HOME: home, PROBE_APP_FILE: appFile, PROBE_OUTSIDE: `${outside}.2`, PROBE_PORT: String(port) },
        sandbox: { enabled: false },
      },
    },
    { platform: new NodePlatform(dataDir, undefined, { keychain: null }) },
  );
});

afterAll(async () => {
  await t.dispose();
  canary.close();
  process.env.HOME = savedHome;
  rmSync(root, { recursive: true, force: true });
});

describe('stdio servers in the sandbox (bubblewrap)', () => {
  it('blocks the secrets, the data folder, writes, loopback and other hosts, and the server keeps working', async () => {
    const snapshot = await start(t.api, 'prober');
    expect(snapshot.status).toBe('connected');
    expect(snapshot.sandbox?.state).toBe('on');
    expect(snapshot.sandbox?.policy?.denyRead).toContain('~/.ssh');
    expect(snapshot.sandbox?.policy?.network.mode).toBe('filtered');

    const result = value(await t.api.callTool({ server: 'prober', tool: 'probe', argumentsJson: '{}' }));
    const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    const report = JSON.parse(text) as { start: string[]; now: string[] };
    for (const line of [...report.start, ...report.now]) expect(line).not.toContain('ALLOWED');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(APP_SECRET);
    expect(existsSync(outside)).toBe(false);
    expect(loopbackConnections).toBe(0);

    // The server still works, and may write its own state folder.
    const state = value(await t.api.callTool({ server: 'prober', tool: 'write_state', argumentsJson: '{}' }));
    expect(state.isError).toBe(false);
    expect(state.content[0]).toMatchObject({ type: 'text', text: 'kept' });

    // Reported: in the server's log (host, warning) and in the server view.
    const logs = value(await t.api.getServerLogs({ name: 'prober' })).entries;
    const warnings = logs.filter((e) => e.source === 'host' && e.level === 'warning').map((e) => e.text);
    expect(warnings).toContain('Sandbox blocked: read ~/.ssh/id_ed25519');
    expect(warnings).toContain(`Sandbox blocked: read ${appFile}`);
    expect(warnings).toContain(`Sandbox blocked: write ${outside}`);
    expect(warnings).toContain(`Sandbox blocked: connect to 127.0.0.1:${String(port)}`);
    expect(warnings).toContain('Sandbox blocked: reach undeclared.example.com');
    const view = value(await t.api.listServers({})).find((s) => s.name === 'prober');
    expect(view?.status).toBe('connected');
    expect(view?.sandbox?.blocked).toContain('read ~/.ssh/id_ed25519');
  });

  it('keeps a state folder per server inside the data folder, the only part of it the server sees', () => {
    const folders = join(dataDir, STATE_FOLDER_NAME);
    const notes = readdirNotes(folders);
    expect(notes).toEqual(['kept']);
  });

  it('runs a server the person took out of the sandbox unconfined, and says so', async () => {
    const snapshot = await start(t.api, 'unconfined');
    expect(snapshot.sandbox).toEqual({ state: 'off', reason: 'turned off for this server' });
    const result = value(await t.api.callTool({ server: 'unconfined', tool: 'probe', argumentsJson: '{}' }));
    const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    expect(text).toContain('read ssh canary: ALLOWED');
  });
});

describe('Run without sandbox', () => {
  it('turns the sandbox off and on again for one server, restarting it and keeping the file tidy', async () => {
    const off = value(await t.api.setServerSandboxed({ name: 'prober', sandboxed: false }));
    expect(off.status).toBe('connected');
    expect(off.sandbox).toEqual({ state: 'off', reason: 'turned off for this server' });
    const written = JSON.parse(readFileSync(t.configPath, 'utf8')) as {
      mcpServers: Record<string, { sandbox?: unknown }>;
    };
    expect(written.mcpServers.prober?.sandbox).toEqual({ enabled: false });

    const on = value(await t.api.setServerSandboxed({ name: 'prober', sandboxed: true }));
    expect(on.sandbox?.state).toBe('on');
    const again = JSON.parse(readFileSync(t.configPath, 'utf8')) as {
      mcpServers: Record<string, { sandbox?: unknown }>;
    };
    expect(again.mcpServers.prober).not.toHaveProperty('sandbox');
  });

  it('refuses it for a server that does not exist, with one line', async () => {
    const result = await t.api.setServerSandboxed({ name: 'nope', sandboxed: false });
    expect(result.ok).toBe(false);
  });
});

function readdirNotes(folders: string): string[] {
  const found: string[] = [];
  for (const entry of existsSync(folders) ? readdirSync(folders) : []) {
    const file = join(folders, entry, 'data', 'note.txt');
    if (existsSync(file)) found.push(readFileSync(file, 'utf8'));
  }
  return found;
}
