import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { connectRetryFetch } from '../../../../../../electron/host/servers/http/connect-retry-fetch.js';

/** A server that drops the connection of the first `resets` requests without answering, then answers 200. */
async function flakyServer(resets: number): Promise<{ url: string; server: Server; received: () => number }> {
  let received = 0;
  const server = createServer((req, res) => {
    received++;
    req.resume();
    if (received <= resets) {
      req.socket.destroy();
      return;
    }
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${String(port)}/mcp`, server, received: () => received };
}

const closeServer = (server: Server) =>
  new Promise<void>((resolve) => {
    server.close(() => {
      resolve();
    });
  });

let open: Server | undefined;
afterEach(async () => {
  const server = open;
  if (server) await closeServer(server);
  open = undefined;
});

describe('connectRetryFetch', () => {
  it('sends a handshake request once more when the connection was reset before an answer', async () => {
    const flaky = await flakyServer(1);
    open = flaky.server;
    const { fetch } = connectRetryFetch(globalThis.fetch);
    const response = await fetch(flaky.url, { method: 'POST', body: '{"jsonrpc":"2.0"}' });
    expect(await response.text()).toBe('ok');
    expect(flaky.received()).toBe(2);
  });

  it('retries only once: a second reset is the caller’s error', async () => {
    const flaky = await flakyServer(2);
    open = flaky.server;
    const { fetch } = connectRetryFetch(globalThis.fetch);
    await expect(fetch(flaky.url, { method: 'POST', body: '{}' })).rejects.toThrow();
    expect(flaky.received()).toBe(2);
  });

  it('never sends a request twice once connected (a tool call could run twice)', async () => {
    const flaky = await flakyServer(1);
    open = flaky.server;
    const retry = connectRetryFetch(globalThis.fetch);
    retry.connected();
    await expect(retry.fetch(flaky.url, { method: 'POST', body: '{}' })).rejects.toThrow();
    expect(flaky.received()).toBe(1);
  });

  it('does not retry a failure that is not a reset (connection refused)', async () => {
    const flaky = await flakyServer(0);
    const url = flaky.url;
    await closeServer(flaky.server);
    let calls = 0;
    const { fetch } = connectRetryFetch((input, init) => {
      calls++;
      return globalThis.fetch(input, init);
    });
    await expect(fetch(url, { method: 'POST', body: '{}' })).rejects.toThrow();
    expect(calls).toBe(1);
  });
});
