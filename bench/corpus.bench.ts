// The compatibility corpus, both halves (test/compat/corpus.json: real
// servers from npm; test/compat/python/corpus.json: Python servers of several
// SDK ages), started together through the host core, against a bare SDK
// client connecting them one by one. The ratio is printed for each half: the
// time until the last server of that half settled in the all-at-once start ÷
// the bare client's one-by-one time for the same servers. Also: how long the
// host's API takes to answer while they all start (the UI's view of
// "responsive"), and the event-loop delay of the host process meanwhile.
// Prints values and ratios of this run.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { ServerConfig } from '../shared/model/config.js';
import type { ServerSnapshot } from '../shared/model/server.js';
import { bareConnect, corpusConfigs, installCorpus } from '../test/compat/corpus.js';
import { pythonConfigs, pythonCorpusHere, startHttpServers } from '../test/compat/python.js';
import { tempDir } from '../test/helpers/servers.js';
import { benchHost } from './lib/host.js';
import { ms, quantile, ratio, table } from './lib/measure.js';

installCorpus();
const scratch = tempDir();
const python = pythonCorpusHere();
for (const { name, reason } of python.skipped) console.log(`${name}: skipped, ${reason}`);
const http = await startHttpServers(python, scratch);
const halves = {
  npm: corpusConfigs(scratch) as Record<string, ServerConfig>,
  python: pythonConfigs(python, scratch, http),
};
const configs: Record<string, ServerConfig> = { ...halves.npm, ...halves.python };
const names = Object.keys(configs);

interface Together {
  ms: number;
  /** When each server had settled, from the start of all. */
  settledMs: Map<string, number>;
  snapshots: ServerSnapshot[];
  apiMs: number[];
  lagMs: number;
}

/** Starts every server of both halves at once on a host with data folder `dataDir`; resolves when all have settled. */
async function startTogether(dataDir: string): Promise<Together> {
  const { host, api } = benchHost(configs, dataDir);
  await host.loadConfig();
  const lag = monitorEventLoopDelay({ resolution: 10 });
  const apiMs: number[] = [];
  const state = { settled: false };
  // What the UI does while it waits: ask the host for the server list, ten times a second.
  const poll = (async () => {
    while (!state.settled) {
      const began = performance.now();
      await api.listServers({});
      apiMs.push(performance.now() - began);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const settledMs = new Map<string, number>();
  lag.enable();
  const started = performance.now();
  const results = await Promise.all(
    names.map(async (name) => {
      const result = await api.startServer({ name });
      settledMs.set(name, performance.now() - started);
      return result;
    }),
  );
  const elapsed = performance.now() - started;
  lag.disable();
  state.settled = true;
  await poll;
  const snapshots = results.map((r) => {
    if (!r.ok) throw new Error(r.error.message);
    return r.value;
  });
  await host.dispose();
  return { ms: elapsed, settledMs, snapshots, apiMs, lagMs: lag.max / 1e6 };
}

async function oneByOne(half: Record<string, ServerConfig>, mode: 'auto' | 'legacy'): Promise<number> {
  const started = performance.now();
  for (const config of Object.values(half)) await bareConnect(config, { mode });
  return performance.now() - started;
}

/** When the last server of `half` had settled. */
const halfMs = (run: Together, half: Record<string, ServerConfig>): number =>
  Math.max(...Object.keys(half).map((name) => run.settledMs.get(name) ?? Number.NaN));

try {
  // Warm the disk cache for both sides alike, then measure.
  const bare = { npm: 0, python: 0 };
  const bareLegacy = { npm: 0, python: 0 };
  for (const half of ['npm', 'python'] as const) {
    await oneByOne(halves[half], 'legacy');
    bare[half] = await oneByOne(halves[half], 'auto');
    bareLegacy[half] = await oneByOne(halves[half], 'legacy');
  }
  const dataDir = tempDir();
  const first = await startTogether(dataDir);
  const again = await startTogether(dataDir);

  for (const half of ['npm', 'python'] as const) {
    const count = Object.keys(halves[half]).length;
    const connected = (run: Together): ServerSnapshot[] =>
      run.snapshots.filter((s) => s.name in halves[half] && s.status === 'connected');
    const failed = [...first.snapshots, ...again.snapshots].filter(
      (s) => s.name in halves[half] && s.status !== 'connected',
    );
    console.log(
      `\n${half} half: ${String(count)} servers (connect and list every tool), started together with the other ${String(names.length - count)}`,
    );
    const firstMs = halfMs(first, halves[half]);
    const againMs = halfMs(again, halves[half]);
    table([
      ['', 'wall time', 'vs bare, one by one (auto)', 'vs bare, one by one (legacy only)'],
      [
        'bare SDK client, one by one, era negotiation auto',
        ms(bare[half]),
        '1.00×',
        ratio(bare[half], bareLegacy[half]),
      ],
      [
        'bare SDK client, one by one, legacy handshake only',
        ms(bareLegacy[half]),
        ratio(bareLegacy[half], bare[half]),
        '1.00×',
      ],
      [
        'host, all at once, first start (probes each era)',
        ms(firstMs),
        ratio(firstMs, bare[half]),
        ratio(firstMs, bareLegacy[half]),
      ],
      [
        'host, all at once, again (eras remembered)',
        ms(againMs),
        ratio(againMs, bare[half]),
        ratio(againMs, bareLegacy[half]),
      ],
    ]);
    console.log(
      `connected: ${String(connected(first).length)}/${String(count)} (first), ${String(connected(again).length)}/${String(count)} (again)${failed.length > 0 ? `; failed: ${failed.map((s) => `${s.name}: ${s.error ?? ''}`).join('; ')}` : ''}`,
    );
  }
  console.log(
    "\n(auto: the SDK's own negotiation, which probes on a disposable sibling process; legacy: one process, initialize only, no 2026-07-28 era. Target for the host: ≤ 0.60× of auto for each half.)",
  );
  console.log(`\nthe host while all ${String(names.length)} start (first start: ${ms(first.ms)})`);
  table([
    ['listServers answered, p50', 'p99', 'max', 'event-loop delay, max'],
    [
      ms(quantile(first.apiMs, 50)),
      ms(quantile(first.apiMs, 99)),
      ms(Math.max(...first.apiMs)),
      ms(first.lagMs),
    ],
  ]);
} finally {
  await http.stop();
}
