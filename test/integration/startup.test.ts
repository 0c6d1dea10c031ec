import { spawn } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stdioIdentity } from '../../electron/host/servers/stdio/era-verdicts.js';
import type { StdioServerConfig } from '../../shared/model/config.js';
import type { ServerSnapshot } from '../../shared/model/server.js';
import { start, value, waitForSnapshot } from '../helpers/host.js';
import type { TestHost } from '../helpers/host.js';
import { hostsDisposedAfterEach, serverLogLines } from '../helpers/tracked-hosts.js';
import { fixtureEntry, fixtureServer, nodeScript, rawServer, tempDir } from '../helpers/servers.js';

const require = createRequire(import.meta.url);
const memoryEntry = require.resolve('@modelcontextprotocol/server-memory/dist/index.js');
const modernEntry = fixtureEntry('modern-server.mjs');

/** A server that reads nothing for `ms`, then runs `entry`: what a slow first start looks like to the host. */
const slowStart = (ms: number, entry: string, ...args: string[]): StdioServerConfig =>
  fixtureServer('slow-start.mjs', String(ms), entry, ...args);

const hosts = hostsDisposedAfterEach();
const logText = serverLogLines;

describe('slow starters', () => {
  it('connect when the first answer comes after 6 s and after 20 s, on the default limit', async () => {
    const t = await hosts.onDataDir({
      six: slowStart(6000, memoryEntry),
      twenty: slowStart(20_000, memoryEntry),
    });
    const started = Date.now();
    const connecting = waitForSnapshot(t, 'twenty', (s) => s.status === 'connecting');
    const results = Promise.all([start(t.api, 'six'), start(t.api, 'twenty')]);
    const starting = await connecting;
    // What the UI needs to show elapsed time and the limit while it waits.
    expect(starting.startingSince).toBeGreaterThanOrEqual(started - 1000);
    expect(starting.connectTimeoutMs).toBe(120_000);
    const [six, twenty] = await results;
    expect(six.status).toBe('connected');
    expect(twenty.status).toBe('connected');
    expect(six.serverInfo?.name).toBe('memory-server');
    // Both are the same program: the era they land on does not depend on how long they took.
    expect(six.era).toBe('legacy');
    expect(twenty.era).toBe(six.era);
    expect(twenty.counts.tools).toBe(six.counts.tools);
  }, 60_000);

  it('a slow 2026-07-28 server still lands in the modern era', async () => {
    const t = await hosts.onDataDir({ modern: slowStart(6000, modernEntry) });
    const snapshot = await start(t.api, 'modern');
    expect(snapshot.status).toBe('connected');
    expect(snapshot.era).toBe('modern');
    expect(snapshot.protocolVersion).toBe('2026-07-28');
  }, 30_000);

  it('a modern server that answers the probe only after the host fell back to initialize is started again in the modern era', async () => {
    const markerDir = tempDir();
    const marker = join(markerDir, 'started');
    // Probe window: half of 10 s. The server first reads its stdin after 6 s, then is fast.
    const t = await hosts.onDataDir({
      late: {
        ...fixtureServer('slow-start.mjs', '6000', '--once', marker, modernEntry),
        connectTimeout: 10_000,
        // It leaves its marker there: a folder its sandbox lets it write.
        sandbox: { allowWrite: [markerDir] },
      },
    });
    const snapshot = await start(t.api, 'late');
    expect(snapshot.status).toBe('connected');
    expect(snapshot.era).toBe('modern');
    expect((await logText(t, 'late')).join('\n')).toMatch(
      /answered the version probe after the host had gone on with the 2025 handshake/,
    );
  }, 30_000);

  it('settles on the same era idle and with every core busy', async () => {
    const idle = await hosts.onDataDir({
      legacy: { command: process.execPath, args: [memoryEntry] },
      modern: fixtureServer('modern-server.mjs'),
    });
    const [legacyIdle, modernIdle] = await Promise.all([
      start(idle.api, 'legacy'),
      start(idle.api, 'modern'),
    ]);
    // Twice as many busy loops as cores.
    const burners = [0, 1, 2, 3].map(() => spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
    try {
      const busy = await hosts.onDataDir({
        legacy: { command: process.execPath, args: [memoryEntry] },
        modern: fixtureServer('modern-server.mjs'),
      });
      const [legacyBusy, modernBusy] = await Promise.all([
        start(busy.api, 'legacy'),
        start(busy.api, 'modern'),
      ]);
      expect([legacyBusy.era, modernBusy.era]).toEqual([legacyIdle.era, modernIdle.era]);
      expect([legacyIdle.era, modernIdle.era]).toEqual(['legacy', 'modern']);
    } finally {
      for (const b of burners) b.kill('SIGKILL');
    }
  }, 60_000);
});

describe('the era is remembered per program', () => {
  it('a restart skips the probe; a changed command probes again', async () => {
    const dataDir = tempDir();
    const t = await hosts.onDataDir({ raw: rawServer('--log-methods') }, dataDir);
    await start(t.api, 'raw');
    expect(await logText(t, 'raw')).toContain('stderr got server/discover');
    const file = join(dataDir, 'protocol-eras.json');
    await expect.poll(() => existsSync(file)).toBe(true);
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { servers: Record<string, { era: string }> };
    expect(stored.servers.raw?.era).toBe('legacy');

    // A new host on the same data folder: the verdict is used, no probe is sent.
    await t.dispose();
    const again = await hosts.onDataDir({ raw: rawServer('--log-methods') }, dataDir);
    const snapshot = await start(again.api, 'raw');
    expect(snapshot.era).toBe('legacy');
    const lines = await logText(again, 'raw');
    expect(lines).toContain('stderr got initialize');
    expect(lines).not.toContain('stderr got server/discover');

    // Another program under the same name is probed again.
    await again.dispose();
    const changed = await hosts.onDataDir({ raw: rawServer('--log-methods', '--no-ping') }, dataDir);
    await start(changed.api, 'raw');
    expect(await logText(changed, 'raw')).toContain('stderr got server/discover');
  }, 30_000);

  it('a server that exits on the unknown probe is started again straight into initialize, and remembered', async () => {
    const dataDir = tempDir();
    const t = await hosts.onDataDir({ strict: rawServer('--strict-first', '--log-methods') }, dataDir);
    const snapshot = await start(t.api, 'strict');
    expect(snapshot.status).toBe('connected');
    expect(snapshot.era).toBe('legacy');
    const lines = (await logText(t, 'strict')).join('\n');
    expect(lines).toMatch(/exited on the version probe \(server\/discover\); starting it again/);
    await t.dispose();
    const again = await hosts.onDataDir({ strict: rawServer('--strict-first', '--log-methods') }, dataDir);
    expect((await start(again.api, 'strict')).status).toBe('connected');
    expect((await logText(again, 'strict')).join('\n')).not.toMatch(/exited on the version probe/);
  }, 30_000);
});

describe('stdout that is not MCP', () => {
  it('banner lines before the handshake and stray lines after it are skipped, counted and logged', async () => {
    const t = await hosts.onDataDir({
      noisy: rawServer('--banner', 'Welcome to Noisy Server v1.2', '--banner', 'Listening on stdio'),
    });
    const snapshot = await start(t.api, 'noisy');
    expect(snapshot.status).toBe('connected');
    expect(snapshot.strayStdout).toEqual({
      count: 2,
      first: ['Welcome to Noisy Server v1.2', 'Listening on stdio'],
    });
    const result = await t.api.callTool({ server: 'noisy', tool: 'chatter', argumentsJson: '{"lines":3}' });
    expect(value(result).content).toEqual([{ type: 'text', text: 'chattered' }]);
    const after = await waitForSnapshot(t, 'noisy', (s) => s.strayStdout?.count === 5);
    expect(after.strayStdout?.first).toHaveLength(3);
    const lines = await logText(t, 'noisy');
    expect(lines).toContain('stdout Welcome to Noisy Server v1.2');
    expect(lines).toContain('stdout debug: step 3 of the work');
  }, 20_000);
});

describe('failures say what happened', () => {
  it('a server that exits with code 0 before answering fails at once, saying it exited', async () => {
    const t = await hosts.onDataDir({ quits: nodeScript('process.exit(0)') });
    const began = Date.now();
    const snapshot = await start(t.api, 'quits');
    expect(snapshot.status).toBe('failed');
    expect(snapshot.error).toMatch(/exited with code 0 before completing the MCP handshake/);
    expect(Date.now() - began).toBeLessThan(10_000);
  });

  it('a command waiting at an interactive prompt times out quoting the prompt, and never looks like a crash', async () => {
    const t = await hosts.onDataDir({
      asks: {
        ...rawServer('--prompt', 'Need to install the following packages: x@1.0.0 Ok to proceed? (y) '),
        connectTimeout: 3000,
      },
    });
    const snapshot = await start(t.api, 'asks');
    expect(snapshot.status).toBe('failed');
    expect(snapshot.error).toMatch(/did not complete the MCP handshake within 3 s/);
    expect(snapshot.error).toContain('Ok to proceed? (y)');
    expect(snapshot.error).not.toMatch(/SIGTERM|killed|exited/);
  }, 20_000);

  it("quotes the server's own last words, not the launcher's", async () => {
    const t = await hostWithFakeNpx('gh', [
      'echo "npm warn exec The following package was not found and will be installed: fake-server@1.0.0" >&2',
      'echo "npm warn deprecated inflight@1.0.6: This module is not supported" >&2',
      `exec "${process.execPath}" -e 'console.error("fatal: GITHUB_TOKEN is not set"); process.exit(2)'`,
    ]);
    const snapshot: ServerSnapshot = await start(t.api, 'gh');
    expect(snapshot.launcher).toEqual({ name: 'npx', mayDownload: true });
    expect(snapshot.error).toMatch(/Last stderr: fatal: GITHUB_TOKEN is not set/);
    expect(snapshot.error).not.toMatch(/Last stderr: npm warn/);
    expect(snapshot.stderrTail).toContain(
      '[npx] npm warn exec The following package was not found and will be installed: fake-server@1.0.0',
    );
    const logs = await logText(t, 'gh');
    expect(logs).toContain('launcher npm warn deprecated inflight@1.0.6: This module is not supported');
  }, 20_000);

  it('names the launcher when only the launcher spoke (a package that does not exist)', async () => {
    const t = await hostWithFakeNpx('nope', [
      'echo "npm error code E404" >&2',
      'echo "npm error 404 Not Found - GET https://registry.npmjs.org/nope" >&2',
      'exit 1',
    ]);
    const snapshot = await start(t.api, 'nope');
    expect(snapshot.error).toMatch(/exited with code 1 before completing the MCP handshake/);
    expect(snapshot.error).toMatch(/npx \(the launcher, not the server\) printed: .*404 Not Found/);
    expect(snapshot.error).not.toMatch(/Last stderr/);
  }, 20_000);
});

/** A host with one server `npx -y <name>`, where `npx` is a shell script of these lines found first on the PATH. */
async function hostWithFakeNpx(name: string, script: string[]): Promise<TestHost> {
  const bin = tempDir();
  const npx = join(bin, 'npx');
  writeFileSync(npx, ['#!/bin/sh', ...script, ''].join('\n'));
  chmodSync(npx, 0o755);
  return hosts.create(
    { [name]: { command: 'npx', args: ['-y', name] } },
    {
      environment: () =>
        Promise.resolve({ all: { PATH: `${bin}:${process.env.PATH ?? ''}` }, source: 'fixed' }),
    },
  );
}

describe('a reply over the size limit', () => {
  it.each([
    ['with its id first', false],
    ['with its id last', true],
  ])(
    'fails its call within seconds (%s), and the server stays usable',
    async (_label, idLast) => {
      const t = await hosts.onDataDir({ raw: rawServer() });
      await start(t.api, 'raw');
      const began = Date.now();
      const result = await t.api.callTool({
        server: 'raw',
        tool: 'huge',
        argumentsJson: JSON.stringify({ mb: 50, idLast }),
      });
      expect(result.ok).toBe(false);
      if (!result.ok)
        expect(result.error.message).toMatch(
          /reply to tools\/call huge that is too large: it (was \d+ MiB, more than|passed) the 16 MiB the host reads in one message/,
        );
      expect(Date.now() - began).toBeLessThan(15_000);
      const echo = await t.api.callTool({
        server: 'raw',
        tool: 'echo',
        argumentsJson: '{"message":"still here"}',
      });
      expect(value(echo).content).toEqual([{ type: 'text', text: 'still here' }]);
    },
    40_000,
  );
});

describe('a remembered era the server refuses', () => {
  it('is probed again and replaced (a server that went from the 2025 handshake to 2026-07-28 only)', async () => {
    const dataDir = tempDir();
    const config = rawServer('--modern-only', '--log-methods');
    // What an earlier start remembered: this very program, legacy.
    writeFileSync(
      join(dataDir, 'protocol-eras.json'),
      JSON.stringify({
        version: 1,
        servers: { raw: { identity: stdioIdentity(config), era: 'legacy', decidedAt: Date.now() } },
      }),
    );
    const t = await hosts.onDataDir({ raw: config }, dataDir);
    const snapshot = await start(t.api, 'raw');
    expect(snapshot.error).toBeUndefined();
    expect(snapshot.status).toBe('connected');
    expect(snapshot.era).toBe('modern');
    const lines = (await logText(t, 'raw')).join('\n');
    expect(lines).toMatch(/answered initialize with an error: .*probing its protocol era again/);
    expect(lines).toContain('got server/discover');
    const file = join(dataDir, 'protocol-eras.json');
    await expect
      .poll(
        () =>
          (JSON.parse(readFileSync(file, 'utf8')) as { servers: Record<string, { era: string }> }).servers.raw
            ?.era,
      )
      .toBe('modern');
  }, 30_000);
});
