import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ServerConnection } from '../../electron/host/servers/server-connection.js';
import type { ServerConfig } from '../../shared/model/config.js';
import type { ServerSnapshot, ToolCallResult } from '../../shared/model/server.js';
import { startModernHttp } from '../helpers/http-servers.js';

const fixturePath = (name: string) => fileURLToPath(new URL(`../fixtures/servers/${name}`, import.meta.url));

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

function connect(config: ServerConfig) {
  const snapshots: ServerSnapshot[] = [];
  const connection = new ServerConnection('fixture', config, {
    appVersion: '0.0.0-test',
    baseEnv: { PATH: process.env.PATH ?? '' },
    onChange: (snapshot) => snapshots.push(snapshot),
  });
  cleanup.push(() => connection.stop());
  return { connection, snapshots };
}

function text(result: ToolCallResult): string {
  const block = result.content[0];
  return block?.type === 'text' ? block.text : '';
}

function waitFor(snapshots: ServerSnapshot[], predicate: (s: ServerSnapshot) => boolean) {
  return new Promise<ServerSnapshot>((resolve) => {
    const poll = setInterval(() => {
      const hit = snapshots.find(predicate);
      if (hit) {
        clearInterval(poll);
        resolve(hit);
      }
    }, 20);
  });
}

async function exerciseModern(config: ServerConfig): Promise<ServerSnapshot> {
  const { connection, snapshots } = connect(config);
  const snapshot = await connection.start();
  expect(snapshot.error).toBeUndefined();
  expect(snapshot).toMatchObject({
    status: 'connected',
    era: 'modern',
    protocolVersion: '2026-07-28',
    serverInfo: { name: 'modern-fixture', version: '2.0.0' },
    instructions: 'A 2026-07-28 fixture.',
  });
  expect(snapshot.tools.map((t) => t.name).sort()).toEqual(['echo', 'grow']);
  expect(text(await connection.callTool('echo', '{"text":"modern"}'))).toBe('modern');
  // list_changed reaches us in the modern era too (over subscriptions/listen).
  const grown = waitFor(snapshots, (s) => s.tools.some((t) => t.name === 'extra-1'));
  await connection.callTool('grow', '{}');
  expect((await grown).counts.tools).toBe(3);
  return snapshot;
}

describe('protocol eras', () => {
  it('negotiates the 2026-07-28 era with a v2 SDK server over stdio', async () => {
    await exerciseModern({ command: process.execPath, args: [fixturePath('modern-server.mjs')] });
  });

  it('negotiates the 2026-07-28 era with a v2 SDK server over Streamable HTTP', async () => {
    const server = await startModernHttp();
    cleanup.push(() => server.stop());
    const snapshot = await exerciseModern({ url: `${server.origin}/mcp` });
    expect(snapshot.httpTransport).toBe('streamable-http');
  });

  it('accepts a JSON-RPC batch line from a 2025-03-26 stdio server', async () => {
    const { connection } = connect({
      command: process.execPath,
      args: [fixturePath('legacy-batch-server.mjs')],
    });
    const snapshot = await connection.start();
    expect(snapshot).toMatchObject({ status: 'connected', era: 'legacy', protocolVersion: '2025-03-26' });
    expect(text(await connection.callTool('batch', '{}'))).toBe('answered in a batch');
  });
});
