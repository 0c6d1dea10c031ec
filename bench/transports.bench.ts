// Tool-call round trips to server-everything over each transport the host
// speaks: stdio, Streamable HTTP and the legacy HTTP+SSE fallback. One run,
// sequential calls after a warm-up; prints the figures and the ratio to stdio.
import { splitSseBatches } from '../electron/host/servers/transport/batch-tolerant-transport.js';
import type { ServerConfig } from '../shared/model/config.js';
import { startEverythingHttp } from '../test/helpers/http-servers.js';
import { openConnection } from '../test/helpers/connection.js';
import { everything } from '../test/helpers/servers.js';
import { quantile, table } from './lib/measure.js';

const CALLS = 200;
const WARMUP = 20;

interface Row {
  transport: string;
  connectMs: number;
  perCallMs: number;
  p95Ms: number;
}

async function measure(transport: string, config: ServerConfig): Promise<Row> {
  const { connection } = openConnection(config, { appVersion: '0.0.0-bench' }, 'bench');
  const connectStarted = performance.now();
  const snapshot = await connection.start();
  const connectMs = performance.now() - connectStarted;
  if (snapshot.status !== 'connected') throw new Error(`${transport}: ${snapshot.error ?? snapshot.status}`);
  const args = JSON.stringify({ message: 'bench' });
  for (let i = 0; i < WARMUP; i++) await connection.callTool('echo', args);
  const times: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const started = performance.now();
    await connection.callTool('echo', args);
    times.push(performance.now() - started);
  }
  await connection.stop();
  const total = times.reduce((sum, t) => sum + t, 0);
  return { transport, connectMs, perCallMs: total / CALLS, p95Ms: quantile(times, 95) };
}

/**
 * What batch tolerance costs each SSE response on its own: reading a typical
 * one-event response through our split transform vs. straight, with no
 * network in between (the HTTP figures above are too noisy to show it).
 */
async function splitCost(): Promise<{ plainUs: number; splitUs: number }> {
  const reply = {
    jsonrpc: '2.0',
    id: 1,
    result: { content: [{ type: 'text', text: 'Echo: bench'.repeat(20) }] },
  };
  const body = new TextEncoder().encode(`event: message\nid: 42\ndata: ${JSON.stringify(reply)}\n\n`);
  const read = async (split: boolean) => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(body);
        controller.close();
      },
    });
    await new Response(split ? stream.pipeThrough(splitSseBatches()) : stream).text();
  };
  const RUNS = 5000;
  const time = async (split: boolean) => {
    for (let i = 0; i < 500; i++) await read(split);
    const started = performance.now();
    for (let i = 0; i < RUNS; i++) await read(split);
    return ((performance.now() - started) * 1000) / RUNS;
  };
  const plainUs = await time(false);
  const splitUs = await time(true);
  return { plainUs, splitUs };
}

const streamable = await startEverythingHttp('streamableHttp');
const sse = await startEverythingHttp('sse');
try {
  const rows = [
    await measure('stdio', everything()),
    await measure('streamable-http', { url: `${streamable.origin}/mcp` }),
    await measure('sse (fallback)', { url: `${sse.origin}/sse` }),
  ];
  const base = rows[0]?.perCallMs ?? 1;
  const lines = [
    ['TRANSPORT', 'CONNECT ms', 'PER CALL ms', 'P95 ms', 'VS STDIO'],
    ...rows.map((r) => [
      r.transport,
      r.connectMs.toFixed(0),
      r.perCallMs.toFixed(2),
      r.p95Ms.toFixed(2),
      `${(r.perCallMs / base).toFixed(2)}x`,
    ]),
  ];
  console.log(
    `transports: ${String(CALLS)} sequential echo calls to server-everything after ${String(WARMUP)} warm-up`,
  );
  table(lines);
} finally {
  await Promise.all([streamable.stop(), sse.stop()]);
}

const cost = await splitCost();
console.log(
  `batch split per SSE response: ${cost.splitUs.toFixed(1)} µs vs ${cost.plainUs.toFixed(1)} µs read straight (${(cost.splitUs / cost.plainUs).toFixed(2)}x, +${(cost.splitUs - cost.plainUs).toFixed(1)} µs)`,
);
