import { afterEach, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../shared/model/config.js';
import type { ServerSnapshot, ToolCallResult } from '../../shared/model/server.js';
import { startModernHttp } from '../helpers/http-servers.js';
import { nextSnapshot, openConnection, stopConnections } from '../helpers/connection.js';
import { fixtureServer } from '../helpers/servers.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await stopConnections();
  for (const step of cleanup.splice(0).reverse()) await step();
});

function text(result: ToolCallResult): string {
  const block = result.content[0];
  return block?.type === 'text' ? block.text : '';
}

async function exerciseModern(config: ServerConfig): Promise<ServerSnapshot> {
  const { connection, snapshots } = openConnection(config);
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
  const grown = nextSnapshot(snapshots, (s) => s.tools.some((t) => t.name === 'extra-1'), 0);
  await connection.callTool('grow', '{}');
  expect((await grown).counts.tools).toBe(3);
  return snapshot;
}

describe('protocol eras', () => {
  it('negotiates the 2026-07-28 era with a v2 SDK server over stdio', async () => {
    await exerciseModern(fixtureServer('modern-server.mjs'));
  });

  it('negotiates the 2026-07-28 era with a v2 SDK server over Streamable HTTP', async () => {
    const server = await startModernHttp();
    cleanup.push(() => server.stop());
    const snapshot = await exerciseModern({ url: `${server.origin}/mcp` });
    expect(snapshot.httpTransport).toBe('streamable-http');
  });

  it('accepts a JSON-RPC batch line from a 2025-03-26 stdio server', async () => {
    const { connection } = openConnection(fixtureServer('legacy-batch-server.mjs'));
    const snapshot = await connection.start();
    expect(snapshot).toMatchObject({ status: 'connected', era: 'legacy', protocolVersion: '2025-03-26' });
    expect(text(await connection.callTool('batch', '{}'))).toBe('answered in a batch');
  });
});
