/**
 * Tasks benchmark (host core, no UI): how responsive the host stays while 50
 * tasks run and each reports its status every 100 ms (test/fixtures/servers/
 * task-server.mjs, tool `ticker`), against the same host idle:
 *   - the event loop's longest delay (perf_hooks.monitorEventLoopDelay);
 *   - a request's round trip from a page on the headless shell's WebSocket
 *     (listServers, every 20 ms), p50 and p99, and the taskChanged frames
 *     the page received.
 * One run; prints the values and the loaded/idle ratios, asserts nothing
 * (target from issue 25: p99 round trip ≤ 1.5× idle).
 */
import { resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { serveHeadless } from '../test/helpers/headless-server.js';
import { recordSocket } from '../test/helpers/socket-recorder.js';
import { benchHost } from './lib/host.js';
import { ms, quantile, ratio, table } from './lib/measure.js';

const TASKS = 50;
const SECONDS = 6;
const fixture = resolve('test/fixtures/servers/task-server.mjs');
const { host, api } = benchHost({ tasks: { command: process.execPath, args: [fixture] } });
await host.loadConfig();
await api.startServer({ name: 'tasks' });
const server = await serveHeadless(host);
const page = await recordSocket(server.port, server.token);
const waiting = new Map<number, () => void>();
page.ws.on('message', (data: Buffer) => {
  const frame = JSON.parse(data.toString()) as { id?: unknown };
  if (typeof frame.id === 'number') waiting.get(frame.id)?.();
});
let nextId = 100;

/** One request from the page and its answer, in ms. */
async function roundTrip(): Promise<number> {
  const id = ++nextId;
  const started = performance.now();
  await new Promise<void>((resolve) => {
    waiting.set(id, resolve);
    page.send(id, 'listServers', {});
  });
  waiting.delete(id);
  return performance.now() - started;
}

interface Phase {
  maxDelayMs: number;
  p50: number;
  p99: number;
  samples: number;
}

async function measure(seconds: number): Promise<Phase> {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const trips: number[] = [];
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    trips.push(await roundTrip());
    await new Promise((r) => setTimeout(r, 20));
  }
  loop.disable();
  return {
    maxDelayMs: loop.max / 1e6,
    p50: quantile(trips, 50),
    p99: quantile(trips, 99),
    samples: trips.length,
  };
}

// Warm up (first requests, JIT) so the idle phase is the host at rest.
await measure(1);
const idle = await measure(SECONDS - 1);
const calls = Array.from({ length: TASKS }, () =>
  api.callTool({
    server: 'tasks',
    tool: 'ticker',
    argumentsJson: JSON.stringify({ seconds: SECONDS, everyMs: 100 }),
  }),
);
// Let every task start and its ticks begin before measuring.
await new Promise((r) => setTimeout(r, 500));
const loaded = await measure(SECONDS - 1.5);
const results = await Promise.all(calls);
const completed = results.filter((r) => r.ok).length;
const taskFrames = page.frames.get('taskChanged') ?? 0;
const failure = results.find((r) => !r.ok);
if (failure?.ok === false) console.log(`  first failure: ${failure.error.message}`);

console.log(
  `tasks bench: ${String(TASKS)} tasks, a status every 100 ms each (${String(completed)} completed), vs idle`,
);
table([
  ['  ', 'idle', `${String(TASKS)} tasks`, 'ratio'],
  [
    '  event loop, longest delay',
    ms(idle.maxDelayMs),
    ms(loaded.maxDelayMs),
    ratio(loaded.maxDelayMs, idle.maxDelayMs),
  ],
  ['  round trip p50', ms(idle.p50), ms(loaded.p50), ratio(loaded.p50, idle.p50)],
  ['  round trip p99', ms(idle.p99), ms(loaded.p99), ratio(loaded.p99, idle.p99)],
  ['  round trips measured', String(idle.samples), String(loaded.samples), ''],
]);
console.log(
  `  taskChanged frames to the page: ${String(taskFrames)} (${(taskFrames / SECONDS).toFixed(0)}/s)`,
);
page.close();
await server.close();
await host.dispose();
