// The OS sandbox of local servers (issue 24), measured on real corpus servers
// (test/compat/corpus.json) with the host core: connect time with ÷ without
// the sandbox (each server started alone, median of a few starts), tools/call
// p50 with ÷ without on server-everything's echo, and the memory of the
// sandbox's helper processes (bubblewrap outside and inside the namespace, and
// the socat that carries a server's network to its proxy).
// Prints values and ratios of this run; nothing here asserts on time.
import { readFileSync } from 'node:fs';
import type { ServerConfig, StdioServerConfig } from '../shared/model/config.js';
import { corpusConfigs, installCorpus } from '../test/compat/corpus.js';
import { tempDir } from '../test/helpers/servers.js';
import { benchHost } from './lib/host.js';
import { mib, ms, quantile, ratio, table } from './lib/measure.js';

const SERVERS = ['everything', 'filesystem', 'memory', 'sequential-thinking', 'github', 'chart'];
const STARTS = 5;
const CALLS = 300;

installCorpus();
const scratch = tempDir();
const corpus = corpusConfigs(scratch);
const chosen = SERVERS.filter((name) => corpus[name] !== undefined);
/** Each server twice in one host: "<name>" unconfined and "<name>-sbx" sandboxed. */
const entries: Record<string, ServerConfig> = {};
for (const name of chosen) {
  const config = corpus[name] as StdioServerConfig;
  entries[name] = { ...config, sandbox: { enabled: false } };
  entries[`${name}-sbx`] = config;
}

/** Resident memory of a process (VmRSS), 0 when it is gone. */
function rssBytes(pid: number): number {
  try {
    const status = readFileSync(`/proc/${String(pid)}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    return kb !== undefined ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** The child pids of a process (empty when it is gone). */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${String(pid)}/task/${String(pid)}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter((child) => child !== '')
      .map(Number);
  } catch {
    return [];
  }
}

const commOf = (pid: number): string => {
  try {
    return readFileSync(`/proc/${String(pid)}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
};

/**
 * The sandbox's helper processes of one server: bubblewrap (the launcher pid
 * and its namespace's init) and the socat that carries its network to its
 * proxy, found anywhere in the server's process tree. (The proxy itself runs
 * in the host's process.)
 */
function helperBytes(pid: number): number {
  let total = 0;
  const queue = [pid];
  while (queue.length > 0) {
    const next = queue.shift() ?? 0;
    if (['bwrap', 'socat'].includes(commOf(next))) total += rssBytes(next);
    queue.push(...childrenOf(next));
  }
  return total;
}

const { host, api } = benchHost(entries);
await host.loadConfig();

/** One start until connected, in ms; the sandboxed one must really be sandboxed. */
async function startOnce(name: string, sandboxed: boolean): Promise<{ ms: number; pid: number }> {
  const began = performance.now();
  const result = await api.startServer({ name });
  const elapsed = performance.now() - began;
  if (!result.ok || result.value.status !== 'connected') {
    throw new Error(
      `${name}: ${result.ok ? (result.value.error ?? result.value.status) : result.error.message}`,
    );
  }
  if (sandboxed && result.value.sandbox?.state !== 'on') {
    throw new Error(`${name}: not sandboxed: ${result.value.sandbox?.reason ?? '?'}`);
  }
  return { ms: elapsed, pid: result.value.pid ?? 0 };
}

// Alternating starts (off, on, off, on …) so a busy machine weighs on both alike; the first of each is a warm-up.
const off = { connect: new Map<string, number[]>(), calls: [] as number[] };
const on = { connect: new Map<string, number[]>(), calls: [] as number[], helpers: 0 };
for (const name of chosen) {
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i <= STARTS; i++) {
    const plain = await startOnce(name, false);
    const boxed = await startOnce(`${name}-sbx`, true);
    if (i > 0) {
      a.push(plain.ms);
      b.push(boxed.ms);
    }
    if (i === STARTS) on.helpers += helperBytes(boxed.pid);
    await api.stopServer({ name });
    await api.stopServer({ name: `${name}-sbx` });
  }
  off.connect.set(name, a);
  on.connect.set(name, b);
}
await Promise.all(['everything', 'everything-sbx'].map((name) => api.startServer({ name })));
for (let i = 0; i < CALLS; i++) {
  for (const [name, into] of [
    ['everything', off.calls],
    ['everything-sbx', on.calls],
  ] as const) {
    const began = performance.now();
    const result = await api.callTool({ server: name, tool: 'echo', argumentsJson: '{"message":"hi"}' });
    if (!result.ok) throw new Error(result.error.message);
    into.push(performance.now() - began);
  }
}
await host.dispose();

const rows: string[][] = [['server', 'connect p50 off', 'connect p50 on', 'on ÷ off']];
let sumOff = 0;
let sumOn = 0;
for (const name of chosen) {
  const a = quantile(off.connect.get(name) ?? [], 0.5);
  const b = quantile(on.connect.get(name) ?? [], 0.5);
  sumOff += a;
  sumOn += b;
  rows.push([name, ms(a), ms(b), ratio(b, a)]);
}
rows.push(['all (sum of p50s)', ms(sumOff), ms(sumOn), ratio(sumOn, sumOff)]);
table(rows);
const callOff = quantile(off.calls, 0.5);
const callOn = quantile(on.calls, 0.5);
table([
  ['tools/call (everything echo)', 'p50 off', 'p50 on', 'on ÷ off'],
  [`${String(CALLS)} calls`, ms(callOff), ms(callOn), ratio(callOn, callOff)],
]);
table([
  ['sandbox helpers (bwrap, socat)', 'total RSS', 'per server'],
  [`${String(chosen.length)} servers`, mib(on.helpers), mib(on.helpers / chosen.length)],
]);
