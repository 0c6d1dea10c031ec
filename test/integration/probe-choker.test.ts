import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StdioProcessTransport } from '../../electron/host/servers/stdio/stdio-transport.js';
import type { StdioServerConfig } from '../../shared/model/config.js';
import { start } from '../helpers/host.js';
import type { TestHost } from '../helpers/host.js';
import { hostsDisposedAfterEach, serverLogLines } from '../helpers/tracked-hosts.js';
import { fixtureServer, tempDir } from '../helpers/servers.js';

// A 2025 server that chokes on server/discover like the Python SDK 1.1–1.9.3 (silent, then exit 1 on the
// next message), and one that ignores the probe but answers initialize.
const choker = (...flags: string[]): StdioServerConfig =>
  fixtureServer('probe-choker.mjs', '--log-methods', ...flags);

const hosts = hostsDisposedAfterEach();

const logText = async (t: TestHost, name: string): Promise<string> =>
  (await serverLogLines(t, name)).join('\n');

/** What a bare 2025 client on the official SDK needs for the same server: spawn, initialize, tools/list. */
async function bareLegacyClientMs(config: StdioServerConfig): Promise<number> {
  const started = Date.now();
  const transport = new StdioProcessTransport({
    command: config.command,
    args: config.args ?? [],
    env: { ...process.env } as Record<string, string>,
  });
  const client = new Client({ name: 'bare', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
  await client.connect(transport);
  await client.listTools();
  const ms = Date.now() - started;
  await client.close();
  await transport.close();
  return ms;
}

describe('a server that chokes on the version probe (Python SDK 1.1–1.9.3)', () => {
  it('connects through the 2025 handshake in seconds, not after 60 s, and a second start sends no probe', async () => {
    const dataDir = tempDir();
    const bare = await bareLegacyClientMs(choker());
    const t = await hosts.onDataDir({ py: choker() }, dataDir);
    const started = Date.now();
    const snapshot = await start(t.api, 'py');
    const firstMs = Date.now() - started;
    expect(snapshot.error).toBeUndefined();
    expect(snapshot.status).toBe('connected');
    expect(snapshot.era).toBe('legacy');
    expect(snapshot.counts.tools).toBe(1);
    const lines = await logText(t, 'py');
    expect(lines).toMatch(
      /left the version probe \(server\/discover\) unanswered and exited on the initialize that followed/,
    );
    // The patience (2 s) plus one restart, with room for a busy machine; it used to be 60 s and then a failure.
    expect(firstMs).toBeLessThan(bare * 2 + 2000 + 4000);

    const file = join(dataDir, 'protocol-eras.json');
    await expect.poll(() => existsSync(file)).toBe(true);
    await expect
      .poll(
        () =>
          (JSON.parse(readFileSync(file, 'utf8')) as { servers: Record<string, { era: string }> }).servers.py
            ?.era,
      )
      .toBe('legacy');

    // A new host on the same data folder: the remembered verdict, straight into initialize.
    await t.dispose();
    const again = await hosts.onDataDir({ py: choker() }, dataDir);
    const restarted = Date.now();
    const second = await start(again.api, 'py');
    const secondMs = Date.now() - restarted;
    expect(second.status).toBe('connected');
    expect(second.era).toBe('legacy');
    const secondLines = await logText(again, 'py');
    expect(secondLines).toContain('stderr got initialize');
    expect(secondLines).not.toContain('server/discover');
    expect(secondMs).toBeLessThan(bare + 3000);
    console.info(
      `probe-choker: bare legacy client ${String(bare)} ms; host first start ${String(firstMs)} ms; second start ${String(secondMs)} ms`,
    );
  }, 60_000);

  it('one that ignores the probe but stays alive connects on the same process after the patience', async () => {
    const t = await hosts.onDataDir({ quiet: choker('--stays-alive') });
    const started = Date.now();
    const snapshot = await start(t.api, 'quiet');
    const ms = Date.now() - started;
    expect(snapshot.status).toBe('connected');
    expect(snapshot.era).toBe('legacy');
    expect(await logText(t, 'quiet')).not.toMatch(/starting it again/);
    expect(ms).toBeLessThan(8000);
    console.info(`probe-choker --stays-alive: host first start ${String(ms)} ms`);
  }, 60_000);
});
