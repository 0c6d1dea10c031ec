import { describe, expect, it } from 'vitest';
import {
  batchTolerantFetch,
  splitJsonRpcBatch,
  splitSseBatches,
} from '../../../../../../electron/host/servers/transport/batch-tolerant-transport.js';

const note = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } };
const reply = { jsonrpc: '2.0', id: 7, result: { ok: true } };

/** Runs `input`, cut into the given chunk sizes, through the transform. */
async function transform(input: string, chunkSize = input.length): Promise<string> {
  const bytes = new TextEncoder().encode(input);
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < bytes.length; i += chunkSize) controller.enqueue(bytes.slice(i, i + chunkSize));
      controller.close();
    },
  });
  return new Response(source.pipeThrough(splitSseBatches())).text();
}

describe('splitJsonRpcBatch', () => {
  it('splits an array of messages and refuses anything else', () => {
    expect(splitJsonRpcBatch([note, reply])).toEqual([note, reply]);
    expect(splitJsonRpcBatch(reply)).toBeUndefined();
    expect(splitJsonRpcBatch([])).toBeUndefined();
    expect(splitJsonRpcBatch([reply, { not: 'a message' }])).toBeUndefined();
  });
});

describe('splitSseBatches', () => {
  it('turns a batched event into one event per message, retry first and id last', async () => {
    const input = `retry: 50\nid: e1\ndata: ${JSON.stringify([note, reply])}\n\n`;
    expect(await transform(input)).toBe(
      `retry: 50\ndata: ${JSON.stringify(note)}\n\ndata: ${JSON.stringify(reply)}\nid: e1\n\n`,
    );
  });

  it('gives the same result whatever the chunking and line endings', async () => {
    const input = `id: e1\r\ndata: ${JSON.stringify([note, reply])}\r\n\r\n`;
    const expected = `data: ${JSON.stringify(note)}\n\ndata: ${JSON.stringify(reply)}\nid: e1\n\n`;
    for (const size of [1, 2, 3, 7, 64]) expect(await transform(input, size)).toBe(expected);
  });

  it('passes single messages, other event types and non-message arrays through unchanged', async () => {
    const input = [
      `id: a\ndata: ${JSON.stringify(reply)}\n\n`,
      `event: endpoint\ndata: /messages?session=1\n\n`,
      `event: custom\ndata: ${JSON.stringify([note])}\n\n`,
      `data: [1, 2, 3]\n\n`,
      `: a comment\n\n`,
    ].join('');
    expect(await transform(input, 5)).toBe(input);
  });

  it('leaves non-SSE responses alone', async () => {
    const fetch = batchTolerantFetch(() =>
      Promise.resolve(
        new Response(JSON.stringify([note, reply]), { headers: { 'content-type': 'application/json' } }),
      ),
    );
    expect(await (await fetch('http://x')).json()).toEqual([note, reply]);
  });
});
