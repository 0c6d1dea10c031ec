import { afterEach, describe, expect, it } from 'vitest';
import type { ServerConnection } from '../../electron/host/servers/server-connection.js';
import type { ServerConfig } from '../../shared/model/config.js';

import { everything, fixtureServer } from '../helpers/servers.js';
import { nextSnapshot, openConnection, stopConnections } from '../helpers/connection.js';

const fixture = (...flags: string[]): ServerConfig => fixtureServer('catalog-server.mjs', ...flags);
const connect = (config: ServerConfig) => openConnection(config);

afterEach(stopConnections);

async function seenMethods(connection: ServerConnection): Promise<string[]> {
  const result = await connection.callTool('seen', '{}');
  const block = result.content[0];
  if (block?.type !== 'text') throw new Error('seen returned no text');
  return JSON.parse(block.text) as string[];
}

describe('server catalog', () => {
  it('fetches every page of tools, resources, templates and prompts and keeps the instructions', async () => {
    const { connection } = connect(fixture());
    const snapshot = await connection.start();
    expect(snapshot.status).toBe('connected');
    expect(snapshot.instructions).toBe('Use grow to add entries.');
    // 5 tools over 3 pages.
    expect(snapshot.tools.map((t) => t.name)).toEqual(['grow', 'seen', 'tool-1', 'tool-2', 'tool-3']);
    expect(snapshot.counts).toEqual({ tools: 5, resources: 5, resourceTemplates: 3, prompts: 3 });

    const catalog = connection.catalog;
    expect(catalog?.resources.map((r) => r.uri)).toEqual(
      [1, 2, 3, 4, 5].map((n) => `fixture://resource/${n}`),
    );
    expect(catalog?.resourceTemplates.map((r) => r.uriTemplate)).toEqual([
      'fixture://template-1/{id}',
      'fixture://template-2/{id}',
      'fixture://template-3/{id}',
    ]);
    expect(catalog?.prompts[0]).toEqual({
      name: 'prompt-1',
      description: 'Prompt number 1',
      arguments: [{ name: 'topic', description: 'What about', required: true }],
    });

    const seen = await seenMethods(connection);
    const count = (method: string) => seen.filter((m) => m === method).length;
    expect(count('tools/list')).toBe(3);
    expect(count('resources/list')).toBe(3);
    expect(count('resources/templates/list')).toBe(2);
    expect(count('prompts/list')).toBe(2);
  });

  it('refreshes on list_changed and tells its listeners', async () => {
    const { connection, snapshots } = connect(fixture());
    await connection.start();
    const changed: string[] = [];
    connection.catalog?.onChange((list) => changed.push(list));

    const grown = nextSnapshot(
      snapshots,
      (s) =>
        s.counts.tools === 6 &&
        s.counts.resources === 6 &&
        s.counts.prompts === 4 &&
        s.counts.resourceTemplates === 4,
    );
    await connection.callTool('grow', '{}');
    const snapshot = await grown;
    expect(snapshot.tools.map((t) => t.name)).toContain('grown-tool-1');
    expect(connection.catalog?.resources.at(-1)?.uri).toBe('fixture://grown/1');
    expect(connection.catalog?.prompts.at(-1)?.name).toBe('grown-prompt-1');
    expect(connection.catalog?.resourceTemplates.at(-1)?.name).toBe('grown-template-1');
    expect(new Set(changed)).toEqual(new Set(['tools', 'resources', 'resourceTemplates', 'prompts']));
  });

  it('never asks for what the server did not declare, and refuses with a clear error', async () => {
    const { connection } = connect(fixture('--only-tools'));
    const snapshot = await connection.start();
    expect(snapshot.capabilities).toEqual({ tools: true, resources: false, prompts: false, logging: false });
    expect(snapshot.counts).toEqual({ tools: 5, resources: 0, resourceTemplates: 0, prompts: 0 });

    expect(() => connection.requireCapability('prompts')).toThrow(
      'Server "fixture" does not offer prompts (it did not declare the "prompts" capability)',
    );
    expect(() => connection.requireCapability('resources.subscribe')).toThrow(
      /does not offer resource subscriptions/,
    );
    // The SDK is strict too: an undeclared request never reaches the wire.
    const client = connection.requireCapability('tools');
    await expect(client.listPrompts()).rejects.toThrow(/does not support prompts/);

    const seen = await seenMethods(connection);
    expect(seen.filter((m) => m.startsWith('resources/') || m.startsWith('prompts/'))).toEqual([]);
  });

  it('treats a missing resources/templates/list as no templates', async () => {
    const { connection } = connect(fixture('--no-templates'));
    const snapshot = await connection.start();
    expect(snapshot.status).toBe('connected');
    expect(snapshot.counts).toMatchObject({ resources: 5, resourceTemplates: 0 });
  });

  it('catalogs server-everything: its resources, templates and prompts', async () => {
    const { connection } = connect(everything());
    const snapshot = await connection.start();
    expect(snapshot.status).toBe('connected');
    expect(snapshot.counts.resources).toBeGreaterThan(0);
    expect(snapshot.counts.prompts).toBeGreaterThan(0);
    expect(connection.catalog?.prompts.some((p) => (p.arguments ?? []).length > 0)).toBe(true);
    expect(connection.catalog?.resourceTemplates.length).toBeGreaterThan(0);
  });
});
