import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { MAX_FRAME_BYTES } from '../../shared/ipc/wire.js';
import {
  clientFrame,
  closedWithin,
  ipcUrl,
  pageHeaders,
  rawUpgrade,
  startHeadlessProcess,
} from '../helpers/headless-process.js';
import type { HeadlessProcess } from '../helpers/headless-process.js';

let app: HeadlessProcess;

beforeAll(async () => {
  app = await startHeadlessProcess();
});
afterAll(async () => {
  await app.stop();
});

/** Opens a well-behaved socket, sends one request and returns its answer. */
async function ask(method: string, params: unknown): Promise<unknown> {
  const ws = new WebSocket(ipcUrl(app.port), {
    headers: pageHeaders(app),
    origin: `http://127.0.0.1:${String(app.port)}`,
    maxPayload: 0,
  });
  try {
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => {
        resolve();
      });
      ws.once('error', reject);
    });
    return await new Promise((resolve) => {
      ws.on('message', (data: Buffer) => {
        const frame = JSON.parse(data.toString()) as { id?: number; result?: unknown };
        if (frame.id === 7) resolve(frame.result);
      });
      ws.send(JSON.stringify({ id: 7, method, params }));
    });
  } finally {
    ws.close();
  }
}

const alive = () => app.child.exitCode === null && app.child.signalCode === null;
const text = (s: string) => Buffer.from(s, 'utf8');

// Each case: first byte of the frame (FIN + RSV + opcode), payload, and an optional declared length.
const badFrames: [string, Buffer][] = [
  ['a header declaring 2^62 bytes', clientFrame(0x81, text('{}'), 2n ** 62n)],
  ['a header declaring more than the frame cap', clientFrame(0x81, text('{}'), BigInt(MAX_FRAME_BYTES + 1))],
  ['invalid UTF-8 in a text frame', clientFrame(0x81, Buffer.from([0x7b, 0xff, 0xfe, 0x7d]))],
  ['a reserved opcode', clientFrame(0x83, text('{}'))],
  ['the RSV1 bit (no extension was negotiated)', clientFrame(0xc1, text('{}'))],
  ['a control frame over 125 bytes', clientFrame(0x89, Buffer.alloc(200))],
  ['a fragmented control frame', clientFrame(0x09, text('x'))],
  ['a continuation with nothing to continue', clientFrame(0x80, text('{}'))],
  ['an unmasked frame', Buffer.from([0x81, 0x02, 0x7b, 0x7d])],
  ['invalid JSON', clientFrame(0x81, text('{"id":'))],
  ['a binary frame', clientFrame(0x82, text('{}'))],
  [
    'two million tiny objects (a parse that would block for most of a second)',
    clientFrame(0x81, text(JSON.stringify({ id: 1, method: 'listServers', params: Array(2e6).fill({}) }))),
  ],
];

describe('one bad frame closes that socket only', () => {
  it.each(badFrames)(
    '%s: the socket is closed, the host keeps answering on a new one',
    async (_name, frame) => {
      const socket = await rawUpgrade(app);
      socket.write(frame);
      expect(await closedWithin(socket, 10_000)).toBe(true);
      expect(alive()).toBe(true);
      expect(await ask('listServers', {})).toEqual({ ok: true, value: [] });
    },
  );

  it('a tool call with more arguments than the contract allows gets a clear error value', async () => {
    // 11 MB of JSON text: under the frame cap, over the contract's limit.
    const argumentsJson = JSON.stringify({ message: 'a'.repeat(11 * 1024 * 1024) });
    const answer = await ask('callTool', { server: 'none', tool: 'echo', argumentsJson });
    expect(answer).toEqual({
      ok: false,
      error: {
        code: 'invalid_params',
        message: expect.stringMatching(/^argumentsJson: The arguments are too large/),
      },
    });
    expect(alive()).toBe(true);
  });

  it('idle connections beyond the limit are refused, and the host answers once they are gone', async () => {
    const sockets: Socket[] = [];
    const closed: Promise<boolean>[] = [];
    for (let i = 0; i < 200; i++) {
      const socket = connect({ host: '127.0.0.1', port: app.port });
      socket.on('error', () => undefined);
      sockets.push(socket);
      closed.push(closedWithin(socket, 3000));
    }
    const results = await Promise.all(closed);
    // The host does not keep 200 sockets it has no use for open.
    expect(results.filter(Boolean).length).toBeGreaterThan(0);
    for (const socket of sockets) socket.destroy();
    expect(alive()).toBe(true);
    await expect
      .poll(async () => ask('listServers', {}), { timeout: 10_000 })
      .toEqual({ ok: true, value: [] });
  });

  it('authenticated sockets beyond the limit are refused with 503', async () => {
    const open: WebSocket[] = [];
    let refused = 0;
    for (let i = 0; i < 40; i++) {
      const ws = new WebSocket(ipcUrl(app.port), {
        headers: pageHeaders(app),
        origin: `http://127.0.0.1:${String(app.port)}`,
      });
      const status = await new Promise<number>((resolve) => {
        ws.once('open', () => {
          resolve(101);
        });
        ws.once('unexpected-response', (_req, res) => {
          resolve(res.statusCode ?? 0);
        });
        ws.once('error', () => {
          resolve(-1);
        });
      });
      if (status === 101) open.push(ws);
      else if (status === 503) refused++;
    }
    expect(refused).toBeGreaterThan(0);
    expect(open.length).toBeLessThan(40);
    for (const ws of open) ws.close();
    await expect
      .poll(async () => ask('listServers', {}), { timeout: 10_000 })
      .toEqual({ ok: true, value: [] });
  });
});
