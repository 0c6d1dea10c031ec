// Server log: ring buffer vs a naive array, and how much the batching saves on the IPC pipe.
// One run, no assertions: prints measured values and ratios.
import { ServerLog, ServerLogs } from '../electron/host/servers/lifecycle/server-log.js';
import { table, timeMs } from './lib/measure.js';
import type { NewLogEntry } from '../electron/host/servers/lifecycle/server-log.js';
import type { LogEntry } from '../shared/model/logs.js';

const LINES = 1_000_000;
const CAP = 5000;
const line = (n: number): NewLogEntry => ({
  source: 'stderr',
  level: 'info',
  text: `line ${String(n)} of a chatty server`,
});

const ringMs = timeMs(() => {
  const log = new ServerLog(CAP, 8192);
  for (let n = 0; n < LINES; n++) log.append(line(n), 0);
});

// The same entries (numbered, stamped, text bounded) kept in an array trimmed with shift().
const naiveMs = timeMs(() => {
  const kept: LogEntry[] = [];
  let seq = 1;
  for (let n = 0; n < LINES; n++) {
    const entry = line(n);
    const text = entry.text.length > 8192 ? `${entry.text.slice(0, 8191)}…` : entry.text;
    kept.push({ seq: seq++, time: 0, source: entry.source, level: entry.level, text });
    if (kept.length > CAP) kept.shift();
  }
});

const full = new ServerLog(CAP, 8192);
for (let n = 0; n < CAP * 2; n++) full.append(line(n), 0);
const snapshotMs =
  timeMs(() => {
    for (let i = 0; i < 100; i++) full.entries();
  }) / 100;

// A server writing 20 000 lines in 200 bursts of 100, a burst every 5 ms, with the default 100 ms flush.
let events = 0;
let delivered = 0;
const logs = new ServerLogs((_event, payload) => {
  events++;
  delivered += (payload as { entries: unknown[] }).entries.length;
});
let sent = 0;
for (let burst = 0; burst < 200; burst++) {
  for (let i = 0; i < 100; i++) logs.append('chatty', line(sent++));
  await new Promise((resolve) => setTimeout(resolve, 5));
}
logs.flush();

const rows: [string, string][] = [
  [`append ${LINES.toLocaleString()} lines, ring of ${String(CAP)}`, `${ringMs.toFixed(0)} ms`],
  [`same with Array push + shift`, `${naiveMs.toFixed(0)} ms`],
  ['ratio naive / ring', `${(naiveMs / ringMs).toFixed(2)}×`],
  [`entries() of a full ring (${String(CAP)})`, `${snapshotMs.toFixed(2)} ms`],
  [`lines written in bursts`, String(sent)],
  [`serverLog events sent`, String(events)],
  [`lines delivered`, String(delivered)],
  ['lines per event', (delivered / events).toFixed(0)],
];
console.log('server-log bench');
table(rows.map(([k, v]) => [`  ${k}`, v]));
