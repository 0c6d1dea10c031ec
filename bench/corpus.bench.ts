// The compatibility corpus (test/compat/corpus.json: 21 real servers from
// npm) started together through the host core, against a bare SDK client
// connecting them one by one. Also: how long the host's API takes to answer
// while they all start (the UI's view of "responsive"), and the event-loop
// delay of the host process meanwhile. Prints values and ratios of this run.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { ServerSnapshot } from '../shared/model/server.js';
import { bareConnect, corpusConfigs, installCorpus, readCorpus } from '../test/compat/corpus.js';
import { tempDir } from '../test/helpers/servers.js';
import { benchHost } from './lib/host.js';
import { ms, quantile, ratio, table } from './lib/measure.js';

installCorpus();
const corpus = readCorpus();
const configs = corpusConfigs(tempDir());

/** Starts every server of the corpus at once on a host with data folder `dataDir`; resolves when all have settled. */
async function startTogether(
  dataDir: string,
): Promise<{ ms: number; snapshots: ServerSnapshot[]; apiMs: number[]; lagMs: number }> {
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
  lag.enable();
  const started = performance.now();
  const results = await Promise.all(corpus.map((s) => api.startServer({ name: s.name })));
  const elapsed = performance.now() - started;
  lag.disable();
  state.settled = true;
  await poll;
  const snapshots = results.map((r) => {
    if (!r.ok) throw new Error(r.error.message);
    return r.value;
  });
  await host.dispose();
  return { ms: elapsed, snapshots, apiMs, lagMs: lag.max / 1e6 };
}

async function oneByOne(mode: 'auto' | 'legacy'): Promise<number> {
  const started = performance.now();
  for (const server of corpus) {
    const config = configs[server.name];
    if (config) await bareConnect(config, { mode });
  }
  return performance.now() - started;
}

// Warm the disk cache for both sides alike, then measure.
await oneByOne('legacy');
const bare = await oneByOne('auto');
const bareLegacy = await oneByOne('legacy');
const dataDir = tempDir();
const first = await startTogether(dataDir);
const again = await startTogether(dataDir);
const failed = [...first.snapshots, ...again.snapshots].filter((s) => s.status !== 'connected');

console.log(`${String(corpus.length)} servers of the compatibility corpus (connect and list every tool)`);
table([
  ['', 'wall time', 'vs bare, one by one (auto)', 'vs bare, one by one (legacy only)'],
  ['bare SDK client, one by one, era negotiation auto', ms(bare), '1.00×', ratio(bare, bareLegacy)],
  ['bare SDK client, one by one, legacy handshake only', ms(bareLegacy), ratio(bareLegacy, bare), '1.00×'],
  [
    'host, all at once, first start (probes each era)',
    ms(first.ms),
    ratio(first.ms, bare),
    ratio(first.ms, bareLegacy),
  ],
  [
    'host, all at once, again (eras remembered)',
    ms(again.ms),
    ratio(again.ms, bare),
    ratio(again.ms, bareLegacy),
  ],
]);
console.log(
  "(auto: the SDK's own negotiation, which probes on a disposable sibling process; legacy: one process, initialize only, no 2026-07-28 era.)",
);
console.log(
  `connected: ${String(first.snapshots.filter((s) => s.status === 'connected').length)}/${String(corpus.length)} (first), ${String(again.snapshots.filter((s) => s.status === 'connected').length)}/${String(corpus.length)} (again)${failed.length > 0 ? `; failed: ${failed.map((s) => `${s.name}: ${s.error ?? ''}`).join('; ')}` : ''}`,
);
console.log('\nthe host while they start (first start)');
table([
  ['listServers answered, p50', 'p99', 'max', 'event-loop delay, max'],
  [
    ms(quantile(first.apiMs, 50)),
    ms(quantile(first.apiMs, 99)),
    ms(Math.max(...first.apiMs)),
    ms(first.lagMs),
  ],
]);
