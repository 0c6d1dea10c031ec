import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { StdioServerConfig } from '../../shared/model/config.js';
import { createTestHost, start, value } from '../helpers/host.js';
import type { TestHost } from '../helpers/host.js';

/**
 * The reference filesystem server (@modelcontextprotocol/server-filesystem)
 * through the host core: its tools, its own path checks, and the roots we
 * give it, which it uses instead of its command-line folders.
 */
const entry = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-filesystem/dist/index.js');

function folder(files: Record<string, string>): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'fs-server-')));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const filesystem = (...dirs: string[]): StdioServerConfig => ({
  command: process.execPath,
  args: [entry, ...dirs],
});

const text = (result: { content: readonly { type: string; text?: string }[] }): string =>
  result.content.map((block) => (block.type === 'text' ? (block.text ?? '') : '')).join('\n');

describe('server-filesystem', () => {
  let t: TestHost | undefined;
  afterEach(async () => {
    await t?.dispose();
    t = undefined;
  });

  it('connects, lists its tools and reads and lists files in its folder', async () => {
    const dir = folder({ 'notes.txt': 'hello from the filesystem server' });
    t = await createTestHost({ fs: filesystem(dir) });
    const snapshot = await start(t.api, 'fs');
    expect(snapshot.status).toBe('connected');
    expect(snapshot.tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['read_text_file', 'list_directory', 'write_file', 'list_allowed_directories']),
    );
    // The server's own hints reach the UI as annotations.
    expect(snapshot.tools.find((tool) => tool.name === 'write_file')?.annotations?.readOnlyHint).toBe(false);

    const read = value(
      await t.api.callTool({
        server: 'fs',
        tool: 'read_text_file',
        argumentsJson: JSON.stringify({ path: join(dir, 'notes.txt') }),
      }),
    );
    expect(read.isError).toBe(false);
    expect(text(read)).toContain('hello from the filesystem server');

    const listing = value(
      await t.api.callTool({
        server: 'fs',
        tool: 'list_directory',
        argumentsJson: JSON.stringify({ path: dir }),
      }),
    );
    expect(text(listing)).toContain('notes.txt');
  });

  it('returns the server’s refusal of a path outside its folders as an error result, not a failure', async () => {
    const dir = folder({});
    const outside = folder({ 'secret.txt': 'not for you' });
    t = await createTestHost({ fs: filesystem(dir) });
    await start(t.api, 'fs');
    const result = value(
      await t.api.callTool({
        server: 'fs',
        tool: 'read_text_file',
        argumentsJson: JSON.stringify({ path: join(outside, 'secret.txt') }),
      }),
    );
    expect(result.isError).toBe(true);
    expect(text(result)).not.toContain('not for you');
  });

  it('uses the roots the host answers with, and follows them when they change', async () => {
    const fromArgs = folder({});
    const rootA = folder({ 'a.txt': 'in root A' });
    const rootB = folder({ 'b.txt': 'in root B' });
    t = await createTestHost({ fs: { ...filesystem(fromArgs), roots: [pathToFileURL(rootA).href] } });
    const { api } = t;
    await start(api, 'fs');
    const allowed = async (): Promise<string> =>
      text(
        value(await api.callTool({ server: 'fs', tool: 'list_allowed_directories', argumentsJson: '{}' })),
      );
    // The server asks for roots/list right after the handshake; wait until it has applied our answer.
    await expect.poll(allowed, { timeout: 15_000 }).toContain(rootA);
    expect(await allowed()).not.toContain(fromArgs);

    // Adding a root sends notifications/roots/list_changed; the server asks again.
    mkdirSync(join(rootB, 'sub'));
    value(await t.api.addRoot({ server: 'fs', path: rootB }));
    await expect.poll(allowed, { timeout: 15_000 }).toContain(rootB);
    const read = value(
      await t.api.callTool({
        server: 'fs',
        tool: 'read_text_file',
        argumentsJson: JSON.stringify({ path: join(rootB, 'b.txt') }),
      }),
    );
    expect(text(read)).toContain('in root B');
  });
});
