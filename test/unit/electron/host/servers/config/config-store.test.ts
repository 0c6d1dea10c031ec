import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigStore, readConfigFile } from '../../../../../../electron/host/servers/config/config-store.js';
import { tempDir } from '../../../../../helpers/servers.js';

const fileWith = (text: string) => {
  const path = join(tempDir(), 'mcp-servers.json');
  writeFileSync(path, text);
  return path;
};

describe('config file', () => {
  it('treats a missing file as an empty configuration', async () => {
    expect(await readConfigFile(join(tempDir(), 'absent.json'))).toEqual({
      ok: true,
      config: { mcpServers: {} },
    });
  });

  it('reads stdio and remote servers in the mcpServers shape', async () => {
    const path = fileWith(
      JSON.stringify({
        mcpServers: {
          fs: { command: 'npx', args: ['-y', 'pkg'], env: { A: '1' }, cwd: '/tmp' },
          remote: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer x' } },
        },
      }),
    );
    const loaded = await readConfigFile(path);
    expect(loaded.ok && Object.keys(loaded.config.mcpServers)).toEqual(['fs', 'remote']);
  });

  it('names the file and the position of a JSON syntax error', async () => {
    const path = fileWith('{"mcpServers": {');
    const loaded = await readConfigFile(path);
    expect(loaded.ok).toBe(false);
    if (!loaded.ok) expect(loaded.error).toMatch(new RegExp(`^${path} is not valid JSON: `));
  });

  it('names the offending key when the shape is wrong', async () => {
    const loaded = await readConfigFile(fileWith('{"mcpServers": {"bad": {"command": 42}}}'));
    expect(loaded.ok).toBe(false);
    if (!loaded.ok) expect(loaded.error).toContain('mcpServers.bad');
  });

  it('reads a server without a sandbox key (sandboxed by default) and one with it', async () => {
    const loaded = await readConfigFile(
      fileWith(
        JSON.stringify({
          mcpServers: {
            plain: { command: 'node' },
            tuned: {
              command: 'node',
              sandbox: { enabled: true, allowWrite: ['~/notes'], allowHosts: ['api.github.com'] },
            },
          },
        }),
      ),
    );
    expect(loaded.ok).toBe(true);
    if (loaded.ok) {
      expect(loaded.config.mcpServers.plain).toEqual({ command: 'node' });
      expect(loaded.config.mcpServers.tuned).toMatchObject({ sandbox: { allowHosts: ['api.github.com'] } });
    }
  });

  it('refuses a malformed sandbox policy, naming the key', async () => {
    for (const sandbox of [
      { allowWrite: 'notes' },
      { enabled: 'no' },
      { allowHost: ['x'] },
      { allowHosts: ['a b'] },
    ]) {
      const loaded = await readConfigFile(
        fileWith(JSON.stringify({ mcpServers: { s: { command: 'node', sandbox } } })),
      );
      expect(loaded.ok).toBe(false);
      if (!loaded.ok) expect(loaded.error).toContain('mcpServers.s.sandbox');
    }
  });

  it('refuses to write over an invalid file and leaves it byte for byte', async () => {
    const text = '{"mcpServers": {"x": {"args": []}}, "mine": true';
    const path = fileWith(text);
    const store = new ConfigStore(path);
    await store.load();
    await expect(store.update((s) => (s.y = { command: 'y' }))).rejects.toMatchObject({
      code: 'config_invalid',
    });
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  it('keeps keys it does not know when it writes', async () => {
    const path = fileWith(
      JSON.stringify({
        globalShortcut: 'Ctrl+Space',
        mcpServers: { a: { command: 'a', type: 'stdio', extra: 1 } },
      }),
    );
    const store = new ConfigStore(path);
    await store.load();
    await store.update((servers) => {
      servers.b = { command: 'b', args: ['--x'] };
    });
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({
      globalShortcut: 'Ctrl+Space',
      mcpServers: { a: { command: 'a', type: 'stdio', extra: 1 }, b: { command: 'b', args: ['--x'] } },
    });
  });
});

describe('writing the config file', () => {
  it('refuses a change the file would not load, naming the key, and leaves the file as it was', async () => {
    const text = JSON.stringify({ mcpServers: { fs: { command: 'npx' } } });
    const path = fileWith(text);
    const store = new ConfigStore(path);
    await store.load();
    const write = store.update((servers) => {
      // As a host-made entry could carry it: typed, but not what the schema allows.
      servers.fs = { command: 'npx', sandbox: { allowHosts: ['foo bar'] } };
    });
    await expect(write).rejects.toThrow(
      /^Not saved: mcpServers\.fs\.sandbox\.allowHosts\.0: "foo bar" is not a host name/,
    );
    expect(readFileSync(path, 'utf8')).toBe(text);
    expect(store.servers().fs).toEqual({ command: 'npx' });
  });
});
