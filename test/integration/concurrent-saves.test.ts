import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { value } from '../helpers/host.js';
import type { TestHost } from '../helpers/host.js';
import { hostsDisposedAfterEach } from '../helpers/tracked-hosts.js';

/** Saves that arrive at the same moment all land: none fails, none is lost. */

const hosts = hostsDisposedAfterEach();
let t: TestHost | undefined;

describe('concurrent writes', () => {
  it('ten servers saved at once are all in the configuration file', async () => {
    t = await hosts.create({});
    const api = t.api;
    const names = Array.from({ length: 10 }, (_, i) => `remote-${String(i)}`);
    const results = await Promise.all(
      names.map((name) =>
        api.saveServer({ input: { transport: 'http', name, url: 'http://127.0.0.1:9/mcp' } }),
      ),
    );
    expect(results.filter((r) => !r.ok)).toEqual([]);
    const file = JSON.parse(readFileSync(t.configPath, 'utf8')) as { mcpServers: Record<string, unknown> };
    expect(Object.keys(file.mcpServers).sort()).toEqual([...names].sort());
  });

  it('a tool toggled while another server is saved: both changes kept', async () => {
    t = await hosts.create({ a: { command: 'node', args: ['x.js'] } });
    const [toggled, saved] = await Promise.all([
      t.api.setToolEnabled({ name: 'a', tool: 'echo', enabled: false }),
      t.api.saveServer({ input: { transport: 'http', name: 'b', url: 'http://127.0.0.1:9/mcp' } }),
    ]);
    expect(toggled.ok && saved.ok).toBe(true);
    const file = JSON.parse(readFileSync(t.configPath, 'utf8')) as {
      mcpServers: Record<string, { disabledTools?: string[] }>;
    };
    expect(file.mcpServers.a?.disabledTools).toEqual(['echo']);
    expect(file.mcpServers.b).toBeDefined();
  });

  it('settings changed at once (model, loop limit, key) are all in the settings file', async () => {
    t = await hosts.create({});
    const api = t.api;
    const results = await Promise.all([
      api.updateSettings({ model: 'claude-haiku-4-5' }),
      api.setApiKey({ key: 'sk-ant-concurrent-0123456789' }),
      api.updateSettings({ maxIterations: 7 }),
      api.updateSettings({ baseUrl: 'https://api.anthropic.com' }),
    ]);
    expect(results.filter((r) => !r.ok)).toEqual([]);
    const settings = value(await api.getSettings({}));
    expect(settings).toMatchObject({ model: 'claude-haiku-4-5', maxIterations: 7, apiKey: { set: true } });
    const file = readFileSync(join(t.dataDir, 'chat-settings.json'), 'utf8');
    expect(JSON.parse(file)).toMatchObject({
      model: 'claude-haiku-4-5',
      maxIterations: 7,
      apiKey: { hint: 'sk-…6789' },
    });
  });
});
