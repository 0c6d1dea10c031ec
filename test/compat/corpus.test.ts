import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { byTransport } from '../../shared/model/config.js';
import type { ServerConfig } from '../../shared/model/config.js';
import type { ServerSnapshot } from '../../shared/model/server.js';
import { createTestHost, start } from '../helpers/host.js';
import type { TestHost } from '../helpers/host.js';
import { alive, tempDir } from '../helpers/servers.js';
import { bareConnect, corpusConfigs, isInstalled, readCorpus, sdkOf } from './corpus.js';
import { readPythonCorpus } from './python.js';
import type { BareView } from './corpus.js';
import { pythonConfigs, pythonCorpusHere, pythonInstalled, startHttpServers } from './python.js';
import type { HttpServers } from './python.js';

// `npm run test:compat` installs the corpus first (scripts/compat-corpus.mjs):
// the npm servers and the Python environments (scripts/compat-python.mjs).
const corpus = readCorpus();
const python = pythonCorpusHere();
const scratch = tempDir();
const configs = corpusConfigs(scratch);
/**
 * The suite runs twice (package.json `test:compat`): with every local server
 * in the OS sandbox, as the app runs them, and with the sandbox turned off for
 * each (vitest.compat.unsandboxed.config.ts), so a difference is the sandbox's.
 */
const sandboxed = process.env.COMPAT_SANDBOX !== 'off';
const mode = sandboxed ? 'sandboxed' : 'not sandboxed';
/** Every server of both halves, in one list: npm first, then Python. */
const all = [
  ...corpus.map((s) => ({
    name: s.name,
    half: 'npm',
    package: `${s.package}@${s.version}`,
    sdk: '',
    via: s.via,
  })),
  ...python.servers.map((s) => ({
    name: s.name,
    half: 'python',
    package: s.environment ?? s.launch,
    sdk: s.sdk,
    via: s.launch === 'url' ? `${s.type ?? 'http'} (${s.file ?? ''})` : s.launch,
  })),
];

let t: TestHost | undefined;
let http: HttpServers | undefined;
let allConfigs: Record<string, ServerConfig> = {};
const bare = new Map<string, BareView | Error>();
let snapshots: ServerSnapshot[] = [];
let hostMs = 0;

beforeAll(async () => {
  expect(isInstalled(), 'the corpus is not installed: run `npm run test:compat`').toBe(true);
  expect(pythonInstalled(python), 'the Python environments are not made: run `npm run test:compat`').toBe(
    true,
  );
  http = await startHttpServers(python, scratch);
  allConfigs = withSandbox({ ...configs, ...pythonConfigs(python, scratch, http) }, sandboxed);
  // The reference: a bare SDK client, one server at a time.
  for (const server of all) {
    const config = allConfigs[server.name];
    if (!config) continue;
    bare.set(server.name, await bareConnect(config).catch((error: unknown) => error as Error));
  }
  // The host: every server of both halves started at once.
  const host = await createTestHost(allConfigs);
  t = host;
  const started = performance.now();
  snapshots = await Promise.all(all.map((server) => start(host.api, server.name)));
  hostMs = performance.now() - started;
}, 600_000);

afterAll(async () => {
  await t?.dispose();
  await http?.stop();
});

describe(`the compatibility corpus (${String(corpus.length)} real servers from npm, ${String(python.servers.length)} Python servers, ${mode})`, () => {
  it('has at least 15 servers of several SDK ages', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(15);
    const sdks = corpus.map((s) => sdkOf(s));
    expect(sdks.some((s) => s.startsWith('TS SDK v1 1.0.'))).toBe(true);
    expect(sdks.some((s) => s.startsWith('TS SDK v2'))).toBe(true);
    expect(sdks.some((s) => s.includes('FastMCP'))).toBe(true);
  });

  it('has Python servers on the official SDK from 1.1 to 2.x and on FastMCP, launched as people launch them', () => {
    for (const { name, reason } of python.skipped) console.log(`Python corpus: ${name} skipped: ${reason}`);
    const sdks = python.servers.map((s) => s.sdk);
    for (const age of ['mcp 1.1.', 'mcp 1.3.', 'mcp 1.6.', 'mcp 1.9.', 'mcp 1.12.', 'mcp 2.', 'FastMCP 4.']) {
      expect(
        sdks.some((s) => s.startsWith(age)),
        age,
      ).toBe(true);
    }
    const launches = python.servers.map((s) => s.launch);
    for (const launch of ['script', 'module', 'file'] as const) expect(launches).toContain(launch);
    const remote = python.servers.filter((s) => s.launch === 'url');
    expect(remote.filter((s) => s.type === 'http').length).toBeGreaterThanOrEqual(2);
    expect(remote.filter((s) => s.type === 'sse').length).toBeGreaterThanOrEqual(1);
    // uvx entries run where uv is installed and are skipped, with the reason, where it is not.
    const uvx = readPythonCorpus().servers.filter((s) => s.launch === 'uvx');
    expect(uvx.length).toBeGreaterThan(0);
    for (const entry of uvx) {
      expect(
        python.servers.some((s) => s.name === entry.name) ||
          python.skipped.some((s) => s.name === entry.name),
      ).toBe(true);
    }
  });

  it('every server connects through the host, all started at once, and lists the tools a bare SDK client sees', () => {
    const npmByName = new Map(corpus.map((s) => [s.name, s]));
    const rows = all.map((server, i) => {
      const snapshot = snapshots[i];
      const reference = bare.get(server.name);
      const npm = npmByName.get(server.name);
      return {
        server: server.name,
        package: server.package,
        sdk: npm !== undefined ? sdkOf(npm) : server.sdk,
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
    report(rows, hostMs, mode);
    for (const [i, server] of all.entries()) {
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

  it(`runs every local server ${mode}, and says so in its view`, () => {
    for (const [i, server] of all.entries()) {
      const config = allConfigs[server.name];
      if (config === undefined || !('command' in config)) continue;
      const sandbox = snapshots[i]?.sandbox;
      expect.soft(sandbox?.state, `${server.name}: ${sandbox?.reason ?? ''}`).toBe(sandboxed ? 'on' : 'off');
      if (!sandboxed) expect.soft(sandbox?.reason, server.name).toBe('turned off for this server');
    }
  });

  it('none of their processes outlives the host', async () => {
    const pids = snapshots.flatMap((s) => (s.pid !== undefined ? [s.pid] : []));
    // Every stdio server has a process; the HTTP ones run on their own (started by this test).
    const stdio = all.filter(
      (s) => allConfigs[s.name] !== undefined && 'command' in (allConfigs[s.name] ?? {}),
    );
    expect(pids.length).toBe(stdio.length);
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

/** The entries as given, each local one with the sandbox turned off when `on` is false. */
function withSandbox(configs: Record<string, ServerConfig>, on: boolean): Record<string, ServerConfig> {
  if (on) return configs;
  return Object.fromEntries(
    Object.entries(configs).map(([name, config]) => [
      name,
      byTransport<ServerConfig>(config, {
        stdio: (local) => ({ ...local, sandbox: { ...local.sandbox, enabled: false } }),
        http: (remote) => remote,
      }),
    ]),
  );
}

function report(rows: Record<string, string | number>[], ms: number, how: string): void {
  const headers = Object.keys(rows[0] ?? {});
  const lines = [
    `| ${headers.join(' | ')} |`,
    `| ${headers.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${headers.map((h) => String(row[h])).join(' | ')} |`),
  ];
  const text = `${lines.join('\n')}\n\nAll ${String(rows.length)} started together through the host, ${how}: ${String(Math.round(ms))} ms until every one had settled.\n`;
  console.log(`\n${text}`);
  mkdirSync('test-results', { recursive: true });
  writeFileSync(`test-results/compat-corpus${sandboxed ? '' : '-unsandboxed'}.md`, text);
}
