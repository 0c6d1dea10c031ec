import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostRequests } from '../../shared/ipc/host-api.js';
import { resourceAsContext } from '../../electron/host/features/resource-context.js';
import { ConfigStore } from '../../electron/host/servers/config/config-store.js';
import { ServerManager } from '../../electron/host/servers/server-manager.js';
import { start, value } from '../helpers/host.js';
import type { TestHost } from '../helpers/host.js';
import { hostsDisposedAfterEach } from '../helpers/tracked-hosts.js';
import { everything, fixtureServer, writeConfig } from '../helpers/servers.js';

const hosts = hostsDisposedAfterEach();
let t: TestHost | undefined;

const TEXT_TEMPLATE = 'demo://resource/dynamic/text/{resourceId}';
const BLOB_TEMPLATE = 'demo://resource/dynamic/blob/{resourceId}';
const FEATURES_DOC = 'demo://resource/static/document/features.md';

async function connected(roots?: string[]): Promise<TestHost> {
  t = await hosts.create({ everything: { ...everything(), ...(roots ? { roots } : {}) } });
  await start(t.api, 'everything');
  return t;
}

/** Polls until `check` returns a value (the server reacts to notifications in its own time). */
async function eventually<T>(check: () => Promise<T | undefined> | T | undefined, tries = 100): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const found = await check();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('condition never became true');
}

async function rootsSeenByServer(api: HostRequests): Promise<string> {
  const result = value(
    await api.callTool({ server: 'everything', tool: 'get-roots-list', argumentsJson: '{}' }),
  );
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
}

describe('listings', () => {
  it('lists the resources, templates and prompts of server-everything with what it allows', async () => {
    const { api } = await connected();
    const listing = value(await api.listResources({ server: 'everything' }));
    expect(listing.resources.map((r) => r.uri)).toContain(FEATURES_DOC);
    expect(listing.templates.map((t) => t.uriTemplate).sort()).toEqual([BLOB_TEMPLATE, TEXT_TEMPLATE]);
    expect(listing).toMatchObject({ subscribe: true, completions: true });
    const prompts = value(await api.listPrompts({}));
    expect(prompts).toHaveLength(1);
    expect(prompts[0]?.server).toBe('everything');
    expect(prompts[0]?.completions).toBe(true);
    expect(prompts[0]?.prompts.map((p) => p.name).sort()).toEqual([
      'args-prompt',
      'completable-prompt',
      'resource-prompt',
      'simple-prompt',
    ]);
    const args = prompts[0]?.prompts.find((p) => p.name === 'args-prompt')?.arguments;
    expect(args).toEqual([
      expect.objectContaining({ name: 'city', required: true }),
      expect.objectContaining({ name: 'state' }),
    ]);
  });

  it('serves every page from the catalog, follows list_changed, and refuses what a server did not declare', async () => {
    t = await hosts.create({ paged: fixtureServer('catalog-server.mjs') });
    await start(t.api, 'paged');
    const listing = value(await t.api.listResources({ server: 'paged' }));
    // Two entries a page on the server: 5 resources and 3 templates arrive whole.
    expect(listing.resources.map((r) => r.name)).toEqual([1, 2, 3, 4, 5].map((n) => `resource-${n}`));
    expect(listing.templates).toHaveLength(3);
    expect(listing).toMatchObject({ subscribe: false, completions: false });
    expect(value(await t.api.listPrompts({}))[0]?.prompts).toHaveLength(3);

    value(await t.api.callTool({ server: 'paged', tool: 'grow', argumentsJson: '{}' }));
    const api = t.api;
    const grown = await eventually(async () => {
      const next = value(await api.listResources({ server: 'paged' }));
      return next.resources.length === 6 ? next : undefined;
    });
    expect(grown.resources.at(-1)?.uri).toBe('fixture://grown/1');

    const subscribe = await t.api.subscribeResource({ server: 'paged', uri: 'fixture://resource/1' });
    expect(subscribe).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const completion = await t.api.complete({
      server: 'paged',
      ref: { type: 'prompt', name: 'prompt-1' },
      argument: { name: 'topic', value: '' },
    });
    expect(completion).toMatchObject({ ok: false, error: { code: 'not_found' } });
    if (!completion.ok) expect(completion.error.message).toContain('completion');
  });

  it('answers listings of a stopped server with not_connected', async () => {
    t = await hosts.create({ everything: everything() });
    expect(await t.api.listResources({ server: 'everything' })).toMatchObject({
      ok: false,
      error: { code: 'not_connected' },
    });
    expect(value(await t.api.listPrompts({}))).toEqual([]);
  });
});

describe('resources of server-everything', () => {
  it('reads a text resource with its MIME type', async () => {
    const { api } = await connected();
    const read = value(await api.readResource({ server: 'everything', target: { uri: FEATURES_DOC } }));
    expect(read.uri).toBe(FEATURES_DOC);
    expect(read.contents).toHaveLength(1);
    const [content] = read.contents;
    expect(content).toMatchObject({ kind: 'text', uri: FEATURES_DOC, mimeType: 'text/markdown' });
    if (content?.kind === 'text') expect(content.text).toContain('Resources');
  });

  it('reads through a template: text and binary (size and MIME type, bytes kept in the host)', async () => {
    const { api } = await connected();
    const text = value(
      await api.readResource({
        server: 'everything',
        target: { uriTemplate: TEXT_TEMPLATE, variables: { resourceId: '7' } },
      }),
    );
    expect(text.uri).toBe('demo://resource/dynamic/text/7');
    expect(text.contents[0]).toMatchObject({ kind: 'text', text: expect.stringContaining('Resource 7:') });

    const blob = value(
      await api.readResource({
        server: 'everything',
        target: { uriTemplate: BLOB_TEMPLATE, variables: { resourceId: '3' } },
      }),
    );
    const [content] = blob.contents;
    expect(content?.kind).toBe('binary');
    if (content?.kind !== 'binary') return;
    // The server's blob is base64 of "Resource 3: This is a base64 blob created at <time>".
    expect(content.bytes).toBeGreaterThan('Resource 3: This is a base64 blob created at '.length);
    expect(content.previewData).toBeUndefined();

    const missing = await api.readResource({
      server: 'everything',
      target: { uriTemplate: TEXT_TEMPLATE, variables: {} },
    });
    expect(missing).toMatchObject({ ok: false, error: { code: 'invalid_params' } });
  });

  it('reports a resource the server does not have as one line', async () => {
    const { api } = await connected();
    const result = await api.readResource({
      server: 'everything',
      target: { uri: 'demo://resource/dynamic/text/not-a-number' },
    });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('protocol_error');
      expect(result.error.message).not.toContain('\n');
      expect(result.error.message).toContain('everything');
    }
  });

  it('subscribes and receives notifications/resources/updated as a resourceUpdated event', async () => {
    const test = await connected();
    value(await test.api.subscribeResource({ server: 'everything', uri: FEATURES_DOC }));
    // server-everything sends updates for subscribed URIs once this tool turns them on.
    value(
      await test.api.callTool({
        server: 'everything',
        tool: 'toggle-subscriber-updates',
        argumentsJson: '{}',
      }),
    );
    const update = await eventually(() => test.events.find((e) => e.event === 'resourceUpdated'));
    expect(update.payload).toMatchObject({ server: 'everything', uri: FEATURES_DOC });
    value(await test.api.unsubscribeResource({ server: 'everything', uri: FEATURES_DOC }));
  });
});

describe('completions of server-everything', () => {
  it('completes a resource template variable', async () => {
    const { api } = await connected();
    const ok = value(
      await api.complete({
        server: 'everything',
        ref: { type: 'resource', uri: TEXT_TEMPLATE },
        argument: { name: 'resourceId', value: '42' },
      }),
    );
    expect(ok.values).toEqual(['42']);
    const none = value(
      await api.complete({
        server: 'everything',
        ref: { type: 'resource', uri: TEXT_TEMPLATE },
        argument: { name: 'resourceId', value: 'abc' },
      }),
    );
    expect(none.values).toEqual([]);
  });

  it('completes a prompt argument, narrowed by the arguments already filled in', async () => {
    const { api } = await connected();
    const departments = value(
      await api.complete({
        server: 'everything',
        ref: { type: 'prompt', name: 'completable-prompt' },
        argument: { name: 'department', value: 'S' },
      }),
    );
    expect(departments.values.sort()).toEqual(['Sales', 'Support']);
    const people = value(
      await api.complete({
        server: 'everything',
        ref: { type: 'prompt', name: 'completable-prompt' },
        argument: { name: 'name', value: '' },
        context: { department: 'Sales' },
      }),
    );
    expect(people.values).toEqual(['David', 'Eve', 'Frank']);
  });
});

describe('prompts of server-everything', () => {
  it('gets a prompt with arguments as messages', async () => {
    const { api } = await connected();
    const result = value(
      await api.getPrompt({
        server: 'everything',
        name: 'args-prompt',
        arguments: { city: 'Paris', state: 'TX' },
      }),
    );
    expect(result).toMatchObject({ server: 'everything', name: 'args-prompt' });
    expect(result.messages).toEqual([
      { role: 'user', content: { type: 'text', text: "What's weather in Paris, TX?" } },
    ]);
  });

  it('gets a prompt with an embedded resource (text, and binary kept in the host)', async () => {
    const { api } = await connected();
    const text = value(
      await api.getPrompt({
        server: 'everything',
        name: 'resource-prompt',
        arguments: { resourceType: 'Text', resourceId: '2' },
      }),
    );
    expect(text.messages).toHaveLength(2);
    expect(text.messages[1]?.content).toMatchObject({
      type: 'resource',
      uri: 'demo://resource/dynamic/text/2',
      text: expect.stringContaining('Resource 2:'),
    });
    const blob = value(
      await api.getPrompt({
        server: 'everything',
        name: 'resource-prompt',
        arguments: { resourceType: 'Blob', resourceId: '5' },
      }),
    );
    expect(blob.messages[1]?.content).toMatchObject({ type: 'resource', blobBytes: expect.any(Number) });
  });

  it('reports a prompt that fails on the server as one line', async () => {
    const { api } = await connected();
    const result = await api.getPrompt({
      server: 'everything',
      name: 'resource-prompt',
      arguments: { resourceType: 'Video', resourceId: '1' },
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'protocol_error' } });
  });
});

describe('roots', () => {
  it('answers roots/list with the configured roots and sends list_changed when they change', async () => {
    const first = mkdtempSync(join(tmpdir(), 'mcp-host-root-a-'));
    const second = mkdtempSync(join(tmpdir(), 'mcp-host-root-b-'));
    const firstUri = pathToFileURL(first).href;
    const secondUri = pathToFileURL(second).href;
    const test = await connected([firstUri]);

    expect(value(await test.api.listRoots({ server: 'everything' }))).toEqual([
      { uri: firstUri, path: first, name: first.split('/').pop() },
    ]);
    // The server asked roots/list itself after initialize; its tool shows what it got.
    const before = await eventually(async () => {
      const text = await rootsSeenByServer(test.api);
      return text.includes(firstUri) ? text : undefined;
    });
    expect(before).toContain('1 total');

    const added = value(await test.api.addRoot({ server: 'everything', path: second }));
    expect(added.map((r) => r.uri)).toEqual([firstUri, secondUri]);
    // list_changed made the server ask again.
    await eventually(async () =>
      (await rootsSeenByServer(test.api)).includes(secondUri) ? true : undefined,
    );

    const saved = JSON.parse(readFileSync(test.configPath, 'utf8')) as {
      mcpServers: { everything: { roots?: string[] } };
    };
    expect(saved.mcpServers.everything.roots).toEqual([firstUri, secondUri]);

    value(await test.api.removeRoot({ server: 'everything', uri: firstUri }));
    const after = await eventually(async () => {
      const text = await rootsSeenByServer(test.api);
      return text.includes(firstUri) ? undefined : text;
    });
    expect(after).toContain(secondUri);
  });

  it('accepts only absolute paths of existing folders', async () => {
    const { api } = await connected();
    const dir = mkdtempSync(join(tmpdir(), 'mcp-host-root-'));
    const file = join(dir, 'file.txt');
    writeFileSync(file, 'x');
    expect(await api.addRoot({ server: 'everything', path: 'relative/dir' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_params' },
    });
    expect(await api.addRoot({ server: 'everything', path: join(dir, 'missing') })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(await api.addRoot({ server: 'everything', path: file })).toMatchObject({
      ok: false,
      error: { code: 'invalid_params', message: `Not a folder: ${file}` },
    });
    expect(value(await api.listRoots({ server: 'everything' }))).toEqual([]);
    // Headless: no native picker, so nothing is picked and the UI offers path entry.
    expect(value(await api.pickRoot({ server: 'everything' }))).toEqual({ picked: false, roots: [] });
  });
});

describe('binary, image and long contents (v2 SDK fixture)', () => {
  const PIXEL =
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

  it('previews images, sizes binaries, cuts long text and shows image prompts', async () => {
    t = await hosts.create({ media: fixtureServer('media-server.mjs') });
    await start(t.api, 'media');
    const api = t.api;
    const read = async (uri: string) => value(await api.readResource({ server: 'media', target: { uri } }));

    const pixel = await read('media://pixel.png');
    expect(pixel.contents).toEqual([
      {
        kind: 'binary',
        uri: 'media://pixel.png',
        mimeType: 'image/png',
        bytes: Buffer.from(PIXEL, 'base64').length,
        previewData: PIXEL,
      },
    ]);

    const big = await read('media://big.txt');
    expect(big.contents[0]).toMatchObject({ kind: 'text', truncated: true, totalChars: 1_200_000 });
    if (big.contents[0]?.kind === 'text') expect(big.contents[0].text.length).toBeLessThan(1_200_000);

    const pair = await read('media://pair');
    expect(pair.contents).toEqual([
      { kind: 'text', uri: 'media://pair/a.txt', mimeType: 'text/plain', text: 'first' },
      { kind: 'binary', uri: 'media://pair/b.bin', mimeType: 'application/octet-stream', bytes: 3 },
    ]);

    const prompt = value(await api.getPrompt({ server: 'media', name: 'picture', arguments: {} }));
    expect(prompt.messages[1]?.content).toEqual({ type: 'image', data: PIXEL, mimeType: 'image/png' });
  });
});

describe('attached resources as model context', () => {
  let manager: ServerManager | undefined;
  afterEach(async () => {
    await manager?.stopAll();
    manager = undefined;
  });

  it('turns text, images and other binaries into context blocks', async () => {
    const path = writeConfig({
      everything: everything(),
      media: fixtureServer('media-server.mjs'),
    });
    manager = new ServerManager(new ConfigStore(path), {
      appVersion: '0.0.0-test',
      environment: () => Promise.resolve({ all: { PATH: process.env.PATH ?? '' }, source: 'fixed' }),
      emit: () => undefined,
    });
    await manager.load();
    await manager.startAll();

    const doc = await resourceAsContext(manager.get('everything'), FEATURES_DOC);
    expect(doc).toHaveLength(1);
    expect(doc[0]?.type).toBe('text');
    if (doc[0]?.type === 'text') {
      expect(doc[0].text).toMatch(
        /^<resource server="everything" uri="demo:\/\/resource\/static\/document\/features\.md" mimeType="text\/markdown">\n/,
      );
      expect(doc[0].text).toMatch(/<\/resource>$/);
    }
    const media = manager.get('media');
    expect(await resourceAsContext(media, 'media://pixel.png')).toEqual([
      { type: 'image', mimeType: 'image/png', data: expect.stringMatching(/^iVBOR/) },
    ]);
    const [big] = await resourceAsContext(media, 'media://big.txt');
    expect(big?.type === 'text' && big.text).toContain('[cut: first 100000 of 1200000 characters]');
    const pair = await resourceAsContext(media, 'media://pair');
    expect(pair[1]).toEqual({
      type: 'text',
      text: '<resource server="media" uri="media://pair/b.bin" mimeType="application/octet-stream">[binary content, 3 bytes, not included]</resource>',
    });
  });
});
