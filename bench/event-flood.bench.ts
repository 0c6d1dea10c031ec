// What a flooding server sends to the page: frames and bytes per event on the
// headless socket while the raw fixture writes 16 MB to stderr and reports
// progress every millisecond. One run, no assertions: prints the counts.
import { resolve } from 'node:path';
import { serveHeadless } from '../test/helpers/headless-server.js';
import { recordSocket, startFlood, stopFlood } from '../test/helpers/socket-recorder.js';
import { benchHost } from './lib/host.js';
import { table } from './lib/measure.js';

const raw = resolve('test/fixtures/servers/raw-server.mjs');
const { host, api } = benchHost({ raw: { command: process.execPath, args: [raw] } });
await host.loadConfig();
await api.startServer({ name: 'raw' });
const server = await serveHeadless(host);

const page = await recordSocket(server.port, server.token);
const started = performance.now();
startFlood(page);
while (!page.answers.has(2)) await new Promise((r) => setTimeout(r, 20));
const floodSeconds = (performance.now() - started) / 1000;
await new Promise((r) => setTimeout(r, 20_000 - floodSeconds * 1000));
stopFlood(page);
while (!page.answers.has(1)) await new Promise((r) => setTimeout(r, 20));
const seconds = (performance.now() - started) / 1000;
await new Promise((r) => setTimeout(r, 1200));
page.close();

const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
console.log(
  `event-flood bench: 16 MB of stderr (took ${floodSeconds.toFixed(1)} s) and progress every 1 ms, ${seconds.toFixed(1)} s in all`,
);
table([
  ['  event', 'frames', 'bytes', 'frames/s'],
  ...[...page.frames.keys()].map((event) => [
    `  ${event}`,
    String(page.frames.get(event) ?? 0),
    kb(page.bytes.get(event) ?? 0),
    ((page.frames.get(event) ?? 0) / seconds).toFixed(1),
  ]),
]);
await server.close();
await host.dispose();
