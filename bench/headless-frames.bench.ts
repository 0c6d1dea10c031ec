// The headless shell under huge frames: how long one frame holds the event
// loop (the longest gap seen by a 1 ms timer while the host takes it in), for
// the largest valid requests and for hostile ones. Frames are built and masked
// before each measurement, so only the host's work is timed. One run, no
// assertions: prints the measured values.
import { randomBytes } from 'node:crypto';
import { rawUpgrade } from '../test/helpers/headless-process.js';
import { serveHeadless } from '../test/helpers/headless-server.js';
import { MAX_FRAME_NESTINGS } from '../electron/headless/frame-guard.js';
import { MAX_ARGUMENTS_CHARS } from '../shared/ipc/contract.js';
import { MAX_FRAME_BYTES } from '../shared/ipc/wire.js';
import { benchHost } from './lib/host.js';
import { mib, table } from './lib/measure.js';

const { host } = benchHost({});
await host.loadConfig();
const server = await serveHeadless(host);

function frame(payload: Buffer): Buffer {
  const header = Buffer.alloc(10);
  header[0] = 0x81;
  header[1] = 0x80 | 127;
  header.writeBigUInt64BE(BigInt(payload.length), 2);
  const mask = randomBytes(4);
  const masked = Buffer.allocUnsafe(payload.length);
  for (let i = 0; i < payload.length; i++) masked[i] = (payload[i] ?? 0) ^ (mask[i & 3] ?? 0);
  return Buffer.concat([header, mask, masked]);
}

/** Sends one frame and returns the longest event-loop gap until the host answered or closed. */
async function stall(payload: string): Promise<{ gap: number; total: number; outcome: string }> {
  const bytes = frame(Buffer.from(payload, 'utf8'));
  const socket = await rawUpgrade(server);
  let last = performance.now();
  let gap = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    gap = Math.max(gap, now - last);
    last = now;
  }, 1);
  const started = performance.now();
  const outcome = await new Promise<string>((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      resolve(chunk[0] === 0x88 ? `closed (${String(chunk.readUInt16BE(2))})` : 'answered');
    });
    socket.on('close', () => {
      resolve('closed');
    });
    socket.write(bytes);
  });
  const total = performance.now() - started;
  clearInterval(ticker);
  socket.destroy();
  return { gap, total, outcome };
}

const request = (method: string, params: unknown) => JSON.stringify({ id: 1, method, params });
const cases: [string, string][] = [
  [
    'largest valid tool call (8 Mi chars of arguments)',
    request('callTool', {
      server: 'none',
      tool: 't',
      argumentsJson: JSON.stringify({ m: 'a'.repeat(MAX_ARGUMENTS_CHARS - 20) }),
    }),
  ],
  [
    'a frame at the cap: one string',
    request('answerConsent', { id: 'x', answer: 'a'.repeat(MAX_FRAME_BYTES - 100) }),
  ],
  [
    `just under the nesting limit: ${MAX_FRAME_NESTINGS.toLocaleString()} objects`,
    request('answerConsent', { id: 'x', answer: Array<object>(MAX_FRAME_NESTINGS - 10).fill({}) }),
  ],
  [
    'hostile: 2.8 million tiny objects (refused before parsing)',
    request('answerConsent', { id: 'x', answer: Array<object>(2_800_000).fill({ a: 1 }) }),
  ],
];

const rows: string[][] = [['frame', 'size', 'longest event-loop gap', 'until answer', 'outcome']];
for (const [name, payload] of cases) {
  const result = await stall(payload);
  rows.push([
    name,
    mib(Buffer.byteLength(payload)),
    `${result.gap.toFixed(0)} ms`,
    `${result.total.toFixed(0)} ms`,
    result.outcome,
  ]);
}
console.log('headless-frames bench');
table(rows.map((row) => row.map((cell) => `  ${cell}`)));
await server.close();
await host.dispose();
