import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LaunchRequest } from '../../electron/host/platform.js';
import type { LogEntry, ServerLogBatch } from '../../shared/model/logs.js';
import type { ServerSnapshot } from '../../shared/model/server.js';
import { start, value } from '../helpers/host.js';
import type { TestHost } from '../helpers/host.js';
import { hostsDisposedAfterEach } from '../helpers/tracked-hosts.js';
import { alive, everything, loggingServer, rawServer, tempDir } from '../helpers/servers.js';

let t: TestHost | undefined;
const savedHome = process.env.HOME;
afterEach(() => {
  process.env.HOME = savedHome;
});
// Registered last, so run first: the host goes before HOME is restored.
const hosts = hostsDisposedAfterEach();

/** The server table as written to the file. */
function stored(path: string): Record<string, Record<string, unknown>> {
  const file = JSON.parse(readFileSync(path, 'utf8')) as {
    mcpServers: Record<string, Record<string, unknown>>;
  };
  return file.mcpServers;
}

/** Every log entry the host pushed for `server` through `serverLog` events so far. */
function pushed(host: TestHost, server: string): LogEntry[] {
  return host.events
    .filter((e) => e.event === 'serverLog')
    .map((e) => e.payload as ServerLogBatch)
    .filter((batch) => batch.server === server)
    .flatMap((batch) => batch.entries);
}

async function until<T>(what: string, probe: () => T | undefined, limitMs = 20_000): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const found = probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('server logs', () => {
  it('server-everything: notifications/message arrive with their level, next to lifecycle events', async () => {
    t = await hosts.create({ everything: everything() });
    const host = t;
    await start(host.api, 'everything');
    value(await host.api.setLogLevel({ name: 'everything', level: 'debug' }));
    value(
      await host.api.callTool({
        server: 'everything',
        tool: 'toggle-simulated-logging',
        argumentsJson: '{}',
      }),
    );
    const message = await until('a notifications/message', () =>
      pushed(host, 'everything').find((e) => e.source === 'server'),
    );
    // server-everything names the level in its text: "Error-level message", "Alert level-message", …
    expect(message.text.toLowerCase()).toContain(message.level);

    const logs = value(await host.api.getServerLogs({ name: 'everything' }));
    expect(logs.level).toBe('debug');
    const lifecycle = logs.entries.filter((e) => e.source === 'host').map((e) => e.text);
    expect(lifecycle[0]).toMatch(/^Starting: .*server-everything.* stdio$/);
    expect(lifecycle).toContainEqual(
      expect.stringMatching(/^Connected to mcp-servers\/everything .*, protocol 2025-11-25$/),
    );
    expect(logs.entries.some((e) => e.source === 'stderr')).toBe(true);

    value(await host.api.stopServer({ name: 'everything' }));
    const after = value(await host.api.getServerLogs({ name: 'everything' })).entries.map((e) => e.text);
    expect(after).toContain('Stopped');
    expect(after.some((text) => /^Process (exited with code|killed by)/.test(text))).toBe(true);
  });

  it('logging/setLevel changes which levels the server sends', async () => {
    t = await hosts.create({ logger: loggingServer() });
    const host = t;
    await start(host.api, 'logger');
    const levelsOfNextBatch = async (): Promise<string[]> => {
      const before = pushed(host, 'logger').length;
      value(await host.api.callTool({ server: 'logger', tool: 'log-all-levels', argumentsJson: '{}' }));
      // The server sends its messages before answering the call; the host flushes them in one batch.
      const batch = await until('the log batch', () => {
        const fresh = pushed(host, 'logger')
          .slice(before)
          .filter((e) => e.source === 'server');
        return fresh.length > 0 && fresh.at(-1)?.level === 'emergency' ? fresh : undefined;
      });
      expect(batch.every((e) => e.logger === 'fixture')).toBe(true);
      return batch.map((e) => e.level);
    };
    expect(await levelsOfNextBatch()).toEqual([
      'debug',
      'info',
      'notice',
      'warning',
      'error',
      'critical',
      'alert',
      'emergency',
    ]);
    value(await host.api.setLogLevel({ name: 'logger', level: 'error' }));
    expect(await levelsOfNextBatch()).toEqual(['error', 'critical', 'alert', 'emergency']);
  });

  it('refuses setLevel for a server without the logging capability', async () => {
    t = await hosts.create({ raw: rawServer() });
    await start(t.api, 'raw');
    const result = await t.api.setLogLevel({ name: 'raw', level: 'info' });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_params' } });
    if (!result.ok) expect(result.error.message).toBe('Server "raw" does not support setting a log level');
  });
});

describe('enable and disable', () => {
  it('a disabled tool is marked in the snapshot, refused when called, and stored in disabledTools', async () => {
    t = await hosts.create({ everything: everything() });
    await start(t.api, 'everything');
    const snapshot = value(await t.api.setToolEnabled({ name: 'everything', tool: 'echo', enabled: false }));
    expect(snapshot.tools.find((tool) => tool.name === 'echo')?.disabled).toBe(true);
    expect(snapshot.tools.find((tool) => tool.name === 'get-sum')?.disabled).toBeUndefined();
    const refused = await t.api.callTool({
      server: 'everything',
      tool: 'echo',
      argumentsJson: '{"message":"hi"}',
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'denied' } });
    if (!refused.ok)
      expect(refused.error.message).toBe('Tool "echo" of server "everything" is disabled in its settings');
    expect(JSON.parse(readFileSync(t.configPath, 'utf8'))).toMatchObject({
      mcpServers: { everything: { disabledTools: ['echo'] } },
    });

    value(await t.api.setToolEnabled({ name: 'everything', tool: 'echo', enabled: true }));
    const result = value(
      await t.api.callTool({ server: 'everything', tool: 'echo', argumentsJson: '{"message":"hi"}' }),
    );
    expect(result.content).toEqual([{ type: 'text', text: 'Echo: hi' }]);
    expect(stored(t.configPath).everything).not.toHaveProperty('disabledTools');
  });

  it('disabling stops the process and survives a reload; enabling starts it again', async () => {
    t = await hosts.create({ everything: everything() });
    const { pid } = await start(t.api, 'everything');
    const disabled = value(await t.api.setServerEnabled({ name: 'everything', enabled: false }));
    expect(disabled.status).toBe('disabled');
    expect(alive(pid ?? 0)).toBe(false);
    expect(stored(t.configPath).everything?.disabled).toBe(true);

    // A disabled server is not started at launch.
    await t.host.start();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(value(await t.api.listServers({}))[0]?.status).toBe('disabled');

    const enabled = value(await t.api.setServerEnabled({ name: 'everything', enabled: true }));
    expect(enabled.status).toBe('connected');
    expect(enabled.pid).not.toBe(pid);
    expect(alive(enabled.pid ?? 0)).toBe(true);
    expect(stored(t.configPath).everything).not.toHaveProperty('disabled');
  });
});

describe('editing the configuration', () => {
  it('saving the form restarts the server with the new config, renamed in place, other keys kept', async () => {
    const launches: LaunchRequest[] = [];
    t = await hosts.create(
      { first: rawServer(), everything: { ...everything(), disabledTools: ['echo'] } },
      {
        launchPolicy: (request) => {
          launches.push(request);
          return Promise.resolve(true);
        },
      },
    );
    const { pid } = await start(t.api, 'everything');
    const input = value(await t.api.getServerInput({ name: 'everything' }));
    expect(input).toMatchObject({ transport: 'stdio', command: process.execPath });
    if (input.transport !== 'stdio') throw new Error('stdio expected');
    const saved = value(
      await t.api.saveServer({
        originalName: 'everything',
        input: { ...input, name: 'renamed', env: { GREETING: 'hello' } },
      }),
    );
    expect(saved).toMatchObject({ name: 'renamed', status: 'connected' });
    expect(saved.pid).not.toBe(pid);
    expect(alive(pid ?? 0)).toBe(false);
    expect(saved.tools.find((tool) => tool.name === 'echo')?.disabled).toBe(true);
    // Same command and args, only a new env name: asked again (names changed).
    expect(launches.map((l) => [l.name, l.kind === 'stdio' ? l.envNames : l.sentVariables])).toEqual([
      ['renamed', ['GREETING']],
    ]);
    const file = JSON.parse(readFileSync(t.configPath, 'utf8')) as { mcpServers: Record<string, unknown> };
    expect(Object.keys(file.mcpServers)).toEqual(['first', 'renamed']);
    expect(file.mcpServers.renamed).toMatchObject({ env: { GREETING: 'hello' }, disabledTools: ['echo'] });
    expect(t.events).toContainEqual({ event: 'serverRemoved', payload: { name: 'everything' } });
    expect(value(await t.api.listServers({})).map((s: ServerSnapshot) => s.name)).toEqual([
      'first',
      'renamed',
    ]);
  });

  it('adds a remote server from the form and refuses a duplicate name', async () => {
    t = await hosts.create({ everything: everything() });
    const remote = value(
      await t.api.saveServer({
        input: {
          transport: 'http',
          name: 'remote',
          url: 'https://example.com/mcp',
          type: 'sse',
          headers: { 'X-Key': 'k' },
        },
      }),
    );
    expect(remote.transport).toBe('http');
    expect(stored(t.configPath).remote).toEqual({
      type: 'sse',
      url: 'https://example.com/mcp',
      headers: { 'X-Key': 'k' },
    });
    const duplicate = await t.api.saveServer({
      input: { transport: 'http', name: 'everything', url: 'https://example.com/mcp' },
    });
    expect(duplicate).toMatchObject({ ok: false, error: { code: 'conflict' } });
  });

  it('a denied launch saves nothing', async () => {
    t = await hosts.create({}, { launchPolicy: () => Promise.resolve(false) });
    const before = readFileSync(t.configPath, 'utf8');
    const result = await t.api.saveServer({ input: { transport: 'stdio', name: 'x', command: 'node' } });
    expect(result).toMatchObject({ ok: false, error: { code: 'denied' } });
    expect(readFileSync(t.configPath, 'utf8')).toBe(before);
  });

  it('raw JSON with an error is refused and the file left untouched; valid JSON is written as is and reloaded', async () => {
    t = await hosts.create({ everything: everything() });
    const { text } = value(await t.api.getRawConfig({}));
    const broken = text.replace('"args"', '"args": 42, "x"');
    const refused = await t.api.saveRawConfig({
      text: '{\n  "mcpServers": {\n    "a": { "command": 7 }\n  }\n}',
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'config_invalid' } });
    if (!refused.ok) expect(refused.error.message).toMatch(/^Not saved: mcpServers\.a\.command \(line 3\): /);
    expect(readFileSync(t.configPath, 'utf8')).toBe(text);
    const syntax = await t.api.saveRawConfig({ text: broken.slice(0, -3) });
    expect(syntax).toMatchObject({ ok: false, error: { code: 'config_invalid' } });
    expect(readFileSync(t.configPath, 'utf8')).toBe(text);

    const edited = `{\n  // not allowed\n}`;
    expect((await t.api.saveRawConfig({ text: edited })).ok).toBe(false);

    const next = JSON.stringify({ mcpServers: { again: everything() }, keep: 'me' }, null, 4);
    const state = value(await t.api.saveRawConfig({ text: next }));
    expect(state.error).toBeUndefined();
    expect(readFileSync(t.configPath, 'utf8')).toBe(next);
    const host = t;
    const connected = await until('the reloaded server to connect', () => {
      const list = host.events
        .filter((e) => e.event === 'serverChanged')
        .map((e) => e.payload as ServerSnapshot)
        .find((s) => s.name === 'again' && s.status === 'connected');
      return list;
    });
    expect(connected.name).toBe('again');
    expect(value(await t.api.listServers({})).map((s) => s.name)).toEqual(['again']);
  });
});

describe('import', () => {
  const vscode = JSON.stringify({
    inputs: [{ type: 'promptString', id: 'token', description: 'Token', password: true }],
    servers: {
      everything: {
        type: 'stdio',
        command: process.execPath,
        args: everything().args,
        env: { TOKEN: '${input:token}' },
      },
      web: {
        type: 'http',
        url: 'https://example.com/mcp',
        headers: { Authorization: 'Bearer ${input:token}' },
      },
    },
  });

  it('previews pasted VS Code JSON, then imports with inputs filled, a rename and a skip', async () => {
    const launches: LaunchRequest[] = [];
    t = await hosts.create(
      { everything: everything() },
      {
        launchPolicy: (request) => {
          launches.push(request);
          return Promise.resolve(true);
        },
      },
    );
    const preview = value(await t.api.previewImport({ source: 'pasted', text: vscode }));
    expect(preview.servers.map((s) => [s.name, s.transport, s.conflict, s.envNames, s.headerNames])).toEqual([
      ['everything', 'stdio', true, ['TOKEN'], []],
      ['web', 'http', false, [], ['Authorization']],
    ]);
    expect(preview.inputs).toEqual([{ id: 'token', description: 'Token', password: true }]);

    const missing = await t.api.importServers({
      source: 'pasted',
      text: vscode,
      choices: [{ name: 'everything', action: 'import', as: 'everything-2' }],
    });
    expect(missing).toMatchObject({ ok: false, error: { message: 'A value is needed for: token' } });

    const result = value(
      await t.api.importServers({
        source: 'pasted',
        text: vscode,
        choices: [
          { name: 'everything', action: 'import', as: 'everything-2' },
          { name: 'web', action: 'skip' },
        ],
        inputs: { token: 's3cret' },
      }),
    );
    expect(result).toEqual({ imported: ['everything-2'], declined: [] });
    expect(launches.map((l) => [l.name, l.kind === 'stdio' ? l.envNames : l.sentVariables])).toEqual([
      ['everything-2', ['TOKEN']],
    ]);
    const file = JSON.parse(readFileSync(t.configPath, 'utf8')) as { mcpServers: Record<string, unknown> };
    expect(Object.keys(file.mcpServers)).toEqual(['everything', 'everything-2']);
    expect(file.mcpServers['everything-2']).toMatchObject({ env: { TOKEN: 's3cret' } });
    const host = t;
    await until('the imported server to connect', () =>
      host.events.find(
        (e) =>
          e.event === 'serverChanged' &&
          (e.payload as ServerSnapshot).name === 'everything-2' &&
          (e.payload as ServerSnapshot).status === 'connected',
      ),
    );
  });

  it('finds Cursor and Claude Desktop files in their known places; a declined launch is not imported', async () => {
    const home = tempDir();
    process.env.HOME = home;
    mkdirSync(join(home, '.cursor'));
    writeFileSync(join(home, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { cur: everything() } }));
    t = await hosts.create({}, { launchPolicy: () => Promise.resolve(false) });
    const locations = value(await t.api.listImportLocations({}));
    expect(locations.find((l) => l.source === 'cursor')).toMatchObject({
      path: join(home, '.cursor', 'mcp.json'),
      found: true,
    });
    expect(locations.find((l) => l.source === 'claude-desktop')?.found).toBe(false);
    const preview = value(await t.api.previewImport({ source: 'cursor' }));
    expect(preview.servers.map((s) => s.name)).toEqual(['cur']);
    const result = value(
      await t.api.importServers({
        source: 'cursor',
        choices: [{ name: 'cur', action: 'import', as: 'cur' }],
      }),
    );
    expect(result).toEqual({ imported: [], declined: ['cur'] });
    expect(stored(t.configPath)).toEqual({});
    const missing = await t.api.previewImport({ source: 'claude-desktop' });
    expect(missing).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });
});
