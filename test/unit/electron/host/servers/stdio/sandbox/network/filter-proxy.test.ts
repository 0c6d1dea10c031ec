import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { NetworkAsk } from '../../../../../../../../electron/host/servers/stdio/sandbox/network/filter-proxy.js';
import { FilterProxy } from '../../../../../../../../electron/host/servers/stdio/sandbox/network/filter-proxy.js';

// The real proxy on a real unix socket, spoken to as a sandboxed client would (raw HTTP).
const dirs: string[] = [];
const proxies: FilterProxy[] = [];

afterEach(async () => {
  for (const proxy of proxies.splice(0)) await proxy.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function proxyWith(
  ask: NetworkAsk,
  over: { maxPendingHosts?: number; askTimeoutMs?: number; download?: string[] } = {},
) {
  const dir = mkdtempSync('/var/tmp/mcp-proxy-test-');
  dirs.push(dir);
  const blocked: string[] = [];
  const denied = new Set<string>();
  const proxy = new FilterProxy({
    server: 'srv',
    socketPath: join(dir, 'p.sock'),
    allow: [],
    deny: ['blocked.example.com'],
    download: [],
    denied,
    ask,
    onBlocked: (attempt, reason) => blocked.push(`${attempt} (${reason})`),
    ...over,
  });
  await proxy.listen();
  proxies.push(proxy);
  return { proxy, blocked, denied };
}

/** Sends one request and returns everything the proxy answers before closing. */
function send(proxy: FilterProxy, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ path: proxy.socketPath });
    let received = '';
    socket.on('connect', () => socket.write(request));
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    socket.on('close', () => {
      resolve(received);
    });
    socket.on('error', reject);
  });
}

const tunnel = (proxy: FilterProxy, target: string) =>
  send(proxy, `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`);

describe('the filtering proxy', () => {
  it('asks once per host while its connections wait on the same answer, then remembers a denial', async () => {
    const asked: string[] = [];
    let answer: (value: { decision: 'deny' }) => void = () => undefined;
    const { proxy, blocked, denied } = await proxyWith((server, prompt) => {
      asked.push(`${server} ${prompt.host}:${String(prompt.port)} ${prompt.via}`);
      return new Promise((resolve) => (answer = resolve));
    });
    const three = [1, 2, 3].map(() => tunnel(proxy, 'api.example.com:443'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(asked).toEqual(['srv api.example.com:443 connect']);
    answer({ decision: 'deny' });
    for (const text of await Promise.all(three)) {
      expect(text).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
      expect(text).toContain('Blocked by the sandbox: api.example.com:443: you denied it');
    }
    expect(denied.has('api.example.com:443')).toBe(true);
    expect(blocked).toContain('connect to api.example.com:443 (you denied it)');
    expect(await tunnel(proxy, 'api.example.com:443')).toMatch(/^HTTP\/1\.1 403/);
    expect(asked).toHaveLength(1);
  });

  it('caps the hosts waiting for an answer: a flood gets one question per host, the rest denied at once', async () => {
    const asked: string[] = [];
    const { proxy } = await proxyWith(
      (_server, prompt, signal) => {
        asked.push(prompt.host);
        return new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => {
            reject(new Error('gone'));
          });
        });
      },
      { maxPendingHosts: 2 },
    );
    void tunnel(proxy, 'a.example.com:443');
    void tunnel(proxy, 'b.example.com:443');
    void tunnel(proxy, 'a.example.com:443');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const third = await tunnel(proxy, 'c.example.com:443');
    expect(third).toContain('too many hosts are already waiting for your answer');
    expect(asked).toEqual(['a.example.com', 'b.example.com']);
  });

  it('denies when nobody answers in time, without remembering it', async () => {
    let asked = 0;
    const { proxy, denied } = await proxyWith(
      (_server, _prompt, signal) => {
        asked++;
        return new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => {
            reject(new Error('late'));
          });
        });
      },
      { askTimeoutMs: 100 },
    );
    expect(await tunnel(proxy, 'slow.example.com:443')).toContain('slow.example.com:443: no answer in time');
    expect(denied.size).toBe(0);
    await tunnel(proxy, 'slow.example.com:443');
    expect(asked).toBe(2);
  });

  it('denies configured and private hosts without asking, and refuses what is not a proxy request', async () => {
    let asked = 0;
    const { proxy } = await proxyWith(() => {
      asked++;
      return Promise.resolve({ decision: 'allow-once' });
    });
    expect(await tunnel(proxy, 'blocked.example.com:443')).toContain('the host is in sandbox.denyHosts');
    expect(await tunnel(proxy, '169.254.169.254:80')).toContain('loopback and private addresses are denied');
    expect(await send(proxy, 'GET http://10.0.0.5:5432/ HTTP/1.1\r\nHost: x\r\n\r\n')).toMatch(
      /^HTTP\/1\.1 403/,
    );
    expect(asked).toBe(0);
    expect(await send(proxy, 'GET https://example.com/ HTTP/1.1\r\n\r\n')).toMatch(
      /^HTTP\/1\.1 400 .*\r\n[\s\S]*use CONNECT for https/,
    );
    expect(await send(proxy, 'hello\r\n\r\n')).toMatch(/^HTTP\/1\.1 400/);
    expect(await send(proxy, `GET / HTTP/1.1\r\n${'X: y\r\n'.repeat(4000)}`)).toMatch(/^HTTP\/1\.1 431/);
  });

  it("lets the launcher's registry through only while the server starts", async () => {
    const asked: string[] = [];
    const { proxy } = await proxyWith(
      (_server, prompt) => {
        asked.push(prompt.host);
        return Promise.resolve({ decision: 'deny' });
      },
      // Resolved to nothing here: an allowed host ends in a 502 (no such name), not a 403.
      { download: ['registry.invalid'] },
    );
    expect(await tunnel(proxy, 'registry.invalid:443')).toMatch(
      /^HTTP\/1\.1 502 .*\r\n[\s\S]*Cannot resolve registry\.invalid/,
    );
    expect(asked).toEqual([]);
    proxy.endDownloadStep();
    expect(await tunnel(proxy, 'registry.invalid:443')).toMatch(/^HTTP\/1\.1 403/);
    expect(asked).toEqual(['registry.invalid']);
  });

  it('withdraws its questions when it closes', async () => {
    let aborted = false;
    const { proxy } = await proxyWith((_server, _prompt, signal) => {
      signal.addEventListener('abort', () => (aborted = true));
      return new Promise(() => undefined);
    });
    const pending = tunnel(proxy, 'x.example.com:443').catch(() => '');
    await new Promise((resolve) => setTimeout(resolve, 50));
    await proxy.close();
    proxies.splice(0);
    expect(aborted).toBe(true);
    await pending;
  });
});
