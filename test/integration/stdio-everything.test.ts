import { describe, expect, it } from 'vitest';
import { start, value } from '../helpers/host.js';
import type { TestHost } from '../helpers/host.js';
import { hostsDisposedAfterEach } from '../helpers/tracked-hosts.js';
import { alive, everything, nodeScript, rawServer } from '../helpers/servers.js';

const hosts = hostsDisposedAfterEach();
let t: TestHost | undefined;

describe('server-everything over stdio', () => {
  it('connects, reports what was negotiated, lists tools and calls echo', async () => {
    t = await hosts.create({ everything: everything() });
    const snapshot = await start(t.api, 'everything');
    expect(snapshot.status).toBe('connected');
    expect(snapshot.protocolVersion).toBe('2025-11-25');
    expect(snapshot.era).toBe('legacy');
    expect(snapshot.serverInfo?.name).toBe('mcp-servers/everything');
    expect(snapshot.pid).toBeGreaterThan(0);
    const echo = snapshot.tools.find((tool) => tool.name === 'echo');
    expect(echo?.inputSchema).toMatchObject({ type: 'object', properties: { message: { type: 'string' } } });

    const result = value(
      await t.api.callTool({ server: 'everything', tool: 'echo', argumentsJson: '{"message":"hello"}' }),
    );
    expect(result.isError).toBe(false);
    expect(result.content).toEqual([{ type: 'text', text: 'Echo: hello' }]);
  });

  it('shows images returned by a tool', async () => {
    t = await hosts.create({ everything: everything() });
    await start(t.api, 'everything');
    const result = value(
      await t.api.callTool({ server: 'everything', tool: 'get-tiny-image', argumentsJson: '{}' }),
    );
    const image = result.content.find((block) => block.type === 'image');
    expect(image).toMatchObject({ type: 'image', mimeType: 'image/png' });
  });

  it('fails a pending call within 1 s with a clear error when the server is killed', async () => {
    t = await hosts.create({ everything: everything() });
    const { pid } = await start(t.api, 'everything');
    const call = t.api.callTool({
      server: 'everything',
      tool: 'trigger-long-running-operation',
      argumentsJson: '{"duration": 30, "steps": 30}',
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const killedAt = performance.now();
    process.kill(pid ?? 0, 'SIGKILL');
    const result = await call;
    const elapsed = performance.now() - killedAt;
    expect(elapsed).toBeLessThan(1000);
    expect(result).toMatchObject({ ok: false, error: { code: 'server_exited' } });
    if (!result.ok)
      expect(result.error.message).toMatch(/"everything" was killed by SIGKILL during tools\/call/);
    // It crashed while in use, so it is being restarted (see resilience.test.ts).
    const after = value(await t.api.listServers({}))[0];
    expect(after?.status).toBe('restarting');
  });

  it('refuses malformed JSON and arguments that break the inputSchema before sending', async () => {
    t = await hosts.create({ everything: everything() });
    await start(t.api, 'everything');
    const malformed = await t.api.callTool({
      server: 'everything',
      tool: 'echo',
      argumentsJson: '{"message":',
    });
    expect(malformed).toMatchObject({ ok: false, error: { code: 'invalid_json' } });
    const wrongType = await t.api.callTool({
      server: 'everything',
      tool: 'echo',
      argumentsJson: '{"message": 1}',
    });
    expect(wrongType).toMatchObject({ ok: false, error: { code: 'invalid_arguments' } });
    if (!wrongType.ok) expect(wrongType.error.message).toContain('message must be string');
    const missing = await t.api.callTool({ server: 'everything', tool: 'echo', argumentsJson: '{}' });
    expect(missing).toMatchObject({ ok: false, error: { code: 'invalid_arguments' } });
  });
});

describe('bad servers fail with one line while the others stay connected', () => {
  const cases: [string, ReturnType<typeof everything>, RegExp][] = [
    [
      'missing',
      { command: 'mcp-host-no-such-command' },
      /^Command not found: "mcp-host-no-such-command" \(searched PATH: .+\)$/,
    ],
    [
      'exits',
      nodeScript('console.error("fatal: no token"); process.exit(4)'),
      /exited with code 4 before completing the MCP handshake\. Last stderr: fatal: no token$/,
    ],
    [
      'garbage',
      {
        ...nodeScript('console.log("Server starting..."); setInterval(() => {}, 1000)'),
        connectTimeout: 3000,
      },
      /did not complete the MCP handshake within 3 s: it has not answered any message .*It wrote to stdout: "Server starting\.\.\."/,
    ],
  ];

  it.each(cases)('%s', async (name, config, reason) => {
    t = await hosts.create({ everything: everything(), [name]: config });
    const [good, bad] = await Promise.all([start(t.api, 'everything'), start(t.api, name)]);
    expect(bad.status).toBe('failed');
    expect(bad.error).toMatch(reason);
    expect(bad.error).not.toContain('\n');
    expect(good.status).toBe('connected');
    const echo = await t.api.callTool({
      server: 'everything',
      tool: 'echo',
      argumentsJson: '{"message":"still here"}',
    });
    expect(value(echo).content).toEqual([{ type: 'text', text: 'Echo: still here' }]);
  });
});

describe('stopping and removing end the whole process tree', () => {
  it('SIGKILLs a server that ignores stdin close and SIGTERM, and its grandchild', async () => {
    t = await hosts.create({
      // Unconfined: the pids it reports are the host's (a sandboxed server has its own PID namespace, sandbox.test.ts).
      stubborn: {
        ...rawServer('--ignore-sigterm', '--ignore-stdin-close', '--grandchild'),
        sandbox: { enabled: false },
      },
    });
    const snapshot = await start(t.api, 'stubborn');
    expect(snapshot.status).toBe('connected');
    const pid = snapshot.pid ?? 0;
    const line = snapshot.stderrTail.find((l) => l.startsWith('grandchild pid'));
    const grandchild = Number(line?.split(' ').pop());
    expect(alive(pid)).toBe(true);
    expect(alive(grandchild)).toBe(true);

    const stopped = value(await t.api.stopServer({ name: 'stubborn' }));
    expect(stopped.status).toBe('stopped');
    expect(alive(pid)).toBe(false);
    expect(alive(grandchild)).toBe(false);
  });

  it('removing a server ends its process and drops it from the config', async () => {
    t = await hosts.create({ plain: { ...rawServer('--grandchild'), sandbox: { enabled: false } } });
    const snapshot = await start(t.api, 'plain');
    const line = snapshot.stderrTail.find((l) => l.startsWith('grandchild pid'));
    const grandchild = Number(line?.split(' ').pop());
    expect(value(await t.api.removeServer({ name: 'plain' }))).toBeNull();
    expect(alive(snapshot.pid ?? 0)).toBe(false);
    expect(alive(grandchild)).toBe(false);
    expect(value(await t.api.listServers({}))).toEqual([]);
  });

  it('a tool that returns isError is a result, not a failure', async () => {
    t = await hosts.create({ raw: rawServer() });
    await start(t.api, 'raw');
    const result = value(await t.api.callTool({ server: 'raw', tool: 'fail', argumentsJson: '{}' }));
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: 'it failed' }]);
  });
});
