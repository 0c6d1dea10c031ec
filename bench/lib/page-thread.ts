import { Worker } from 'node:worker_threads';
import { pageCookieHeader } from '../../electron/headless/proofs.js';

/**
 * A page on the headless shell's WebSocket, on its own thread: in the app the
 * renderer is another process, so its parsing of event frames must not sit
 * in the host's event loop and count against the host. The thread sends
 * `listServers` every `gapMs` and measures each round trip.
 */
export interface PageThread {
  /** Round trips (ms) measured for `seconds`, and the event frames received meanwhile, by name. */
  measure(seconds: number): Promise<{ trips: number[]; frames: Record<string, number> }>;
  close(): Promise<void>;
}

// Plain JavaScript, run as the worker's CommonJS script (eval), so the bench needs no second bundle.
const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const WebSocket = require('ws');
const ws = new WebSocket(workerData.url, { headers: { Cookie: workerData.cookie }, origin: workerData.origin });
const waiting = new Map();
let frames = {};
let nextId = 1;
ws.on('message', (data) => {
  const frame = JSON.parse(data.toString());
  if (typeof frame.id === 'number') waiting.get(frame.id)?.();
  else if (typeof frame.event === 'string') frames[frame.event] = (frames[frame.event] ?? 0) + 1;
});
const roundTrip = () => new Promise((resolve) => {
  const id = nextId++;
  const started = performance.now();
  waiting.set(id, () => { waiting.delete(id); resolve(performance.now() - started); });
  ws.send(JSON.stringify({ id, method: 'listServers', params: {} }));
});
parentPort.on('message', async (message) => {
  if (message.type === 'close') { ws.close(); parentPort.close(); return; }
  frames = {};
  const trips = [];
  const end = performance.now() + message.seconds * 1000;
  while (performance.now() < end) {
    trips.push(await roundTrip());
    await new Promise((r) => setTimeout(r, workerData.gapMs));
  }
  parentPort.postMessage({ trips, frames });
});
ws.once('open', () => parentPort.postMessage({ ready: true }));
ws.once('error', (error) => parentPort.postMessage({ error: String(error) }));
`;

export async function pageThread(port: number, token: string, gapMs = 20): Promise<PageThread> {
  const worker = new Worker(SOURCE, {
    eval: true,
    workerData: {
      url: `ws://127.0.0.1:${String(port)}/ipc`,
      origin: `http://127.0.0.1:${String(port)}`,
      cookie: pageCookieHeader(token, port),
      gapMs,
    },
  });
  // The next message, or the thread's error; whichever comes first takes the other's listener along.
  const next = <T>(): Promise<T> =>
    new Promise((resolve, reject) => {
      const onMessage = (message: T) => {
        worker.off('error', onError);
        resolve(message);
      };
      const onError = (error: Error) => {
        worker.off('message', onMessage);
        reject(error);
      };
      worker.once('message', onMessage);
      worker.once('error', onError);
    });
  const ready = await next<{ ready?: true; error?: string }>();
  if (ready.error !== undefined) throw new Error(`the page thread could not connect: ${ready.error}`);
  return {
    measure: (seconds) => {
      const answer = next<{ trips: number[]; frames: Record<string, number> }>();
      worker.postMessage({ type: 'measure', seconds });
      return answer;
    },
    close: async () => {
      worker.postMessage({ type: 'close' });
      await worker.terminate();
    },
  };
}
