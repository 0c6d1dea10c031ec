import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerSnapshot } from '../../shared/model/server.js';
import { createTestHost, start } from '../helpers/host.js';
import type { TestHost } from '../helpers/host.js';
import { alive, tempDir } from '../helpers/servers.js';
import { bareConnect, corpusConfigs, isInstalled, readCorpus, sdkOf } from './corpus.js';
import type { BareView } from './corpus.js';

// `npm run test:compat` installs the corpus first (scripts/compat-corpus.mjs).
const corpus = readCorpus();
const scratch = tempDir();
const configs = corpusConfigs(scratch);

let t: TestHost | undefined;
const bare = new Map<string, BareView | Error>();
let snapshots: ServerSnapshot[] = [];
let hostMs = 0;

beforeAll(async () => {
  expect(isInstalled(), 'the corpus is not installed: run `npm run test:compat`').toBe(true);
  // The reference: a bare SDK client, one server at a time.
  for (const server of corpus) {
    const config = configs[server.name];
    if (!config) continue;
    bare.set(server.name, await bareConnect(config).catch((error: unknown) => error as Error));
  }
  // The host: every server started at once.
  const host = await createTestHost(configs);
  t = host;
  const started = performance.now();
  snapshots = await Promise.all(corpus.map((server) => start(host.api, server.name)));
  hostMs = performance.now() - started;
}, 600_000);

afterAll(async () => {
  await t?.dispose();
});

describe(`the compatibility corpus (${String(corpus.length)} real servers from npm)`, () => {
  it('has at least 15 servers of several SDK ages', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(15);
    const sdks = corpus.map((s) => sdkOf(s));
    expect(sdks.some((s) => s.startsWith('TS SDK v1 1.0.'))).toBe(true);
    expect(sdks.some((s) => s.startsWith('TS SDK v2'))).toBe(true);
    expect(sdks.some((s) => s.includes('FastMCP'))).toBe(true);
  });

  it('every server connects through the host, all started at once, and lists the tools a bare SDK client sees', () => {
    const rows = corpus.map((server, i) => {
      const snapshot = snapshots[i];
      const reference = bare.get(server.name);
      return {
        server: server.name,
        package: `${server.package}@${server.version}`,
        sdk: sdkOf(server),
        via: server.via,
        protocol: snapshot?.protocolVersion ?? '-',
        tools: snapshot?.counts.tools ?? 0,
        bareTools:
          reference instanceof Error ? `error: ${reference.message}` : String(reference?.tools.length),
        status:
          snapshot?.status === 'connected'
            ? 'connected'
            : `${snapshot?.status ?? '?'}: ${snapshot?.error ?? ''}`,
      };
    });
    report(rows, hostMs);
    for (const [i, server] of corpus.entries()) {
      const snapshot = snapshots[i];
      const reference = bare.get(server.name);
      expect.soft(snapshot?.status, `${server.name}: ${snapshot?.error ?? ''}`).toBe('connected');
      if (reference instanceof Error || reference === undefined) {
        expect
          .soft(reference, `the bare client could not list ${server.name}'s tools`)
          .not.toBeInstanceOf(Error);
        continue;
      }
      expect
        .soft(snapshot?.tools.map((tool) => tool.name).sort(), server.name)
        .toEqual([...reference.tools].sort());
      expect.soft(snapshot?.protocolVersion, `${server.name}: protocol`).toBe(reference.protocolVersion);
    }
  });

  it('none of their processes outlives the host', async () => {
    const pids = snapshots.flatMap((s) => (s.pid !== undefined ? [s.pid] : []));
    expect(pids.length).toBe(corpus.length);
    await t?.dispose();
    t = undefined;
    // Each server runs in its own process group (npx → sh → node, the .NET launcher → its binary).
    const survivors = pids.filter((pid) => alive(pid) || groupAlive(pid));
    expect(survivors).toEqual([]);
  }, 60_000);
});

function groupAlive(pgid: number): boolean {
  if (process.platform === 'win32') return false;
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function report(rows: Record<string, string | number>[], ms: number): void {
  const headers = Object.keys(rows[0] ?? {});
  const lines = [
    `| ${headers.join(' | ')} |`,
    `| ${headers.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${headers.map((h) => String(row[h])).join(' | ')} |`),
  ];
  const text = `${lines.join('\n')}\n\nAll ${String(rows.length)} started together through the host: ${String(Math.round(ms))} ms until every one had settled.\n`;
  console.log(`\n${text}`);
  mkdirSync('test-results', { recursive: true });
  writeFileSync('test-results/compat-corpus.md', text);
}
