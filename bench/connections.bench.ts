// Host core vs a bare SDK Client on the same stdio server (server-everything):
// tools/call latency, connecting 20 servers vs one, and host memory after
// 10,000 calls vs after 100. Prints values and ratios measured in this run.
import { createRequire } from 'node:module';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { hostEnvironment } from '../electron/host/servers/stdio/login-env.js';
import type { HostRequests } from '../shared/ipc/host-api.js';
import type { StdioServerConfig } from '../shared/model/config.js';
import { benchHost } from './lib/host.js';
import type { BenchHost } from './lib/host.js';
import { collectGarbage, mib, ms, ratio, summarize, table } from './lib/measure.js';

const require = createRequire(import.meta.url);
const everythingEntry = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const everything: StdioServerConfig = { command: process.execPath, args: [everythingEntry, 'stdio'] };
const ECHO = { message: 'hello' };

/** Connects every configured server; resolves with the time from start to all connected. */
async function connectAll(running: BenchHost, count: number): Promise<number> {
  await running.host.loadConfig();
  const connected = new Set<string>();
  const done = new Promise<void>((resolve, reject) => {
    running.host.onEvent((event, payload) => {
      if (event !== 'serverChanged') return;
      const snapshot = payload as { name: string; status: string; error?: string };
      if (snapshot.status === 'failed') reject(new Error(`${snapshot.name}: ${snapshot.error ?? ''}`));
      if (snapshot.status === 'connected') connected.add(snapshot.name);
      if (connected.size === count) resolve();
    });
  });
  const started = performance.now();
  await running.host.start();
  await done;
  return performance.now() - started;
}

async function bareClient(): Promise<Client> {
  const client = new Client({ name: 'bench-bare', version: '0' });
  await client.connect(
    new StdioClientTransport({ command: everything.command, args: everything.args ?? [], stderr: 'ignore' }),
  );
  return client;
}

async function hostCall(api: HostRequests): Promise<number> {
  const started = performance.now();
  const result = await api.callTool({ server: 's0', tool: 'echo', argumentsJson: JSON.stringify(ECHO) });
  const elapsed = performance.now() - started;
  if (!result.ok) throw new Error(result.error.message);
  return elapsed;
}

async function bareCall(client: Client): Promise<number> {
  const started = performance.now();
  await client.callTool({ name: 'echo', arguments: ECHO });
  return performance.now() - started;
}

async function latency(): Promise<void> {
  const running = benchHost({ s0: everything });
  await connectAll(running, 1);
  const bare = await bareClient();
  // Warm both paths, then alternate call by call so that whatever else the
  // machine is doing hits both alike.
  for (let i = 0; i < 500; i++) {
    await hostCall(running.api);
    await bareCall(bare);
  }
  const host: number[] = [];
  const sdk: number[] = [];
  for (let i = 0; i < 3000; i++) {
    if (i % 2 === 0) {
      host.push(await hostCall(running.api));
      sdk.push(await bareCall(bare));
    } else {
      sdk.push(await bareCall(bare));
      host.push(await hostCall(running.api));
    }
  }
  // CPU of this process per call, in alternating phases: unlike wall time it
  // hardly moves with the machine's load, so it shows the host's own work.
  const cpuHost: number[] = [];
  const cpuBare: number[] = [];
  const phase = async (call: () => Promise<number>, into: number[]): Promise<void> => {
    const before = process.cpuUsage();
    for (let i = 0; i < 300; i++) await call();
    const used = process.cpuUsage(before);
    into.push((used.user + used.system) / 300 / 1000);
  };
  for (let round = 0; round < 10; round++) {
    await phase(() => hostCall(running.api), cpuHost);
    await phase(() => bareCall(bare), cpuBare);
  }
  const ch = summarize(cpuHost).p50;
  const cb = summarize(cpuBare).p50;
  const h = summarize(host);
  const b = summarize(sdk);
  console.log(`tools/call echo, small payload, server-everything over stdio (${String(h.n)} calls each)`);
  table([
    ['', 'p50', 'p99'],
    ['host core (validated API)', ms(h.p50), ms(h.p99)],
    ['bare SDK Client', ms(b.p50), ms(b.p99)],
    ['host / bare', ratio(h.p50, b.p50), ratio(h.p99, b.p99)],
  ]);
  console.log('\nclient-side CPU per call (median of 10 phases of 300 calls)');
  table([
    ['host core', 'bare SDK Client', 'host / bare', 'host overhead'],
    [ms(ch), ms(cb), ratio(ch, cb), `${((ch - cb) * 1000).toFixed(1)} µs`],
  ]);
  await bare.close();
  await running.host.dispose();
}

async function bareConnect(count: number): Promise<number> {
  const started = performance.now();
  const clients = await Promise.all(Array.from({ length: count }, () => bareClient()));
  const elapsed = performance.now() - started;
  await Promise.all(clients.map((c) => c.close()));
  return elapsed;
}

async function connections(): Promise<void> {
  const servers = (n: number) =>
    Object.fromEntries(Array.from({ length: n }, (_, i) => [`s${String(i)}`, everything]));
  const measure = async (n: number): Promise<number> => {
    const running = benchHost(servers(n));
    const elapsed = await connectAll(running, n);
    await running.host.dispose();
    return elapsed;
  };
  // One warm-up of each so disk caches are equal; then host and bare, 1 and 20.
  await measure(1);
  await bareConnect(1);
  const host1 = await measure(1);
  const host20 = await measure(20);
  const bare1 = await bareConnect(1);
  const bare20 = await bareConnect(20);
  console.log(
    '\nconnect stdio servers (server-everything; host: spawn + negotiate + list tools/resources/prompts; bare: spawn + initialize)',
  );
  table([
    ['', '1 server', '20 servers', '20 / 1', '20 / (20 × 1)'],
    ['host core', ms(host1), ms(host20), ratio(host20, host1), ratio(host20, 20 * host1)],
    ['bare SDK Client', ms(bare1), ms(bare20), ratio(bare20, bare1), ratio(bare20, 20 * bare1)],
  ]);
  console.log(
    `(20 / (20 × 1) below 1 means the servers started in parallel. Each server-everything needs CPU to boot, so on ${String(cores)} cores 20 cannot take the time of one. The host runs each server in its own session (process group); on Linux with sched_autogroup that also gives each its own CPU share, which is why it can beat the bare client on a busy machine.)`,
  );
}

async function memory(): Promise<void> {
  const running = benchHost({ s0: everything });
  await connectAll(running, 1);
  for (let i = 0; i < 100; i++) await hostCall(running.api);
  collectGarbage();
  const after100 = process.memoryUsage().heapUsed;
  for (let i = 100; i < 10_000; i++) await hostCall(running.api);
  collectGarbage();
  const after10k = process.memoryUsage().heapUsed;
  console.log('\nhost heap (after a full GC)');
  table([
    ['after 100 calls', 'after 10,000 calls', 'growth', '10,000 / 100'],
    [mib(after100), mib(after10k), mib(after10k - after100), ratio(after10k, after100)],
  ]);
  await running.host.dispose();
}

// The login shell is asked once per host start; ask it before anything is timed.
const env = await hostEnvironment();
const cores = (await import('node:os')).availableParallelism();
console.log(`cores: ${String(cores)}, node ${process.version}, env: ${env.source}\n`);
// `node connections.bench.mjs latency` runs one part (for profiling).
const parts = process.argv.slice(2);
const wanted = (part: string): boolean => parts.length === 0 || parts.includes(part);
if (wanted('latency')) await latency();
if (wanted('connections')) await connections();
if (wanted('memory')) await memory();
