import { execFile } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { everything, nodeScript, rawServer, tempDir, writeConfig } from '../helpers/servers.js';

const cli = fileURLToPath(new URL('../../dist/cli/mcp-host.mjs', import.meta.url));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** One clear line on stderr and no stack trace. */
function expectOneLine(stderr: string, pattern: RegExp) {
  const lines = stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(stderr).not.toMatch(/\n\s+at /);
}

let config: string;
beforeAll(() => {
  if (!existsSync(cli)) throw new Error('dist/cli/mcp-host.mjs is missing: run `npm run build` first');
  config = writeConfig({
    everything: everything(),
    raw: rawServer(),
    broken: nodeScript('process.exit(1)'),
  });
});

describe('mcp-host CLI', () => {
  it('servers --json: status, protocol version, server info and counts; 3 when one failed', async () => {
    const { code, stdout } = await run('servers', '--json', '--config', config);
    expect(code).toBe(3);
    const rows = JSON.parse(stdout) as {
      name: string;
      status: string;
      protocolVersion?: string;
      counts: object;
    }[];
    expect(rows.find((r) => r.name === 'everything')).toMatchObject({
      status: 'connected',
      protocolVersion: '2025-11-25',
      serverInfo: { name: 'mcp-servers/everything' },
      counts: { tools: expect.any(Number), resources: expect.any(Number), prompts: expect.any(Number) },
    });
    expect(rows.find((r) => r.name === 'broken')).toMatchObject({ status: 'failed' });
  });

  it('servers shows the sandbox state; sandbox <server> prints the effective policy or why there is none', async () => {
    const sandboxed = writeConfig({
      boxed: everything(),
      free: { ...everything(), sandbox: { enabled: false } },
    });
    const listed = await run('servers', '--config', sandboxed);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/SANDBOX\n/);
    expect(listed.stdout).toMatch(/boxed\s+connected.*\bon\n/);
    expect(listed.stdout).toMatch(/free\s+connected.*\boff\n/);
    expect(listed.stdout).toContain('free: Not sandboxed: turned off for this server');
    const policy = await run('sandbox', 'boxed', '--config', sandboxed);
    expect(policy.code).toBe(0);
    expect(policy.stdout).toMatch(
      /^boxed: Sandboxed\n {2}read: {3}everything except .*\n {2}write: {2}.*server-state\/boxed-[0-9a-f]{12}\/data, \/tmp \(private\)\n {2}network: filtered: no host allowed yet \(you are asked about other hosts/,
    );
    const off = await run('sandbox', 'free', '--config', sandboxed);
    expect(off.stdout).toBe('free: Not sandboxed: turned off for this server\n');
  });

  it('servers: a table, 0 when all connect', async () => {
    const { code, stdout } = await run('servers', '--config', writeConfig({ everything: everything() }));
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /^NAME\s+STATUS\s+TRANSPORT\s+PROTOCOL\s+ERA\s+SERVER\s+TOOLS\s+RESOURCES\s+PROMPTS/,
    );
    expect(stdout).toMatch(/everything\s+connected\s+stdio\s+2025-11-25\s+legacy\s+mcp-servers\/everything/);
  });

  it('tools <server> lists names and descriptions', async () => {
    const { code, stdout } = await run('tools', 'everything', '--config', config);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^echo\s+\S/m);
    const json = await run('tools', 'raw', '--json', '--config', config);
    expect((JSON.parse(json.stdout) as { name: string }[]).map((t) => t.name)).toEqual([
      'echo',
      'fail',
      'hang',
      'crash',
      'progress',
      'flood',
      'chatter',
      'huge',
    ]);
  });

  it('call prints the result; exit 0', async () => {
    const { code, stdout } = await run(
      'call',
      'everything',
      'echo',
      '--args',
      '{"message":"cli"}',
      '--config',
      config,
    );
    expect(code).toBe(0);
    expect(stdout.trim()).toBe('Echo: cli');
  });

  it('call: exit 1 when the tool returns an error result', async () => {
    const { code, stdout } = await run('call', 'raw', 'fail', '--config', config);
    expect(code).toBe(1);
    expect(stdout.trim()).toBe('it failed');
  });

  it('exit 2 for usage mistakes, bad arguments and unknown servers, with one line', async () => {
    let r = await run('call', 'everything', 'echo', '--args', '{"message":', '--config', config);
    expect(r.code).toBe(2);
    expectOneLine(r.stderr, /^mcp-host: Arguments are not valid JSON/);
    r = await run('call', 'everything', 'echo', '--args', '{"message":5}', '--config', config);
    expect(r.code).toBe(2);
    expectOneLine(r.stderr, /message must be string/);
    r = await run('tools', 'nope', '--config', config);
    expect(r.code).toBe(2);
    expectOneLine(r.stderr, /No server named "nope"/);
    r = await run('frobnicate');
    expect(r.code).toBe(2);
    r = await run('serve', '--port', 'abc');
    expect(r.code).toBe(2);
    expectOneLine(r.stderr, /--port must be a number/);
  });

  it('exit 2 for an invalid config file, naming the file', async () => {
    const bad = join(tempDir(), 'bad.json');
    writeFileSync(bad, '{"mcpServers": {"x": {"command": 1}}}');
    const r = await run('servers', '--config', bad);
    expect(r.code).toBe(2);
    expectOneLine(r.stderr, new RegExp(`^mcp-host: ${bad}: mcpServers\\.x`));
  });

  it('exit 3 when the server cannot be reached, with the reason', async () => {
    const r = await run('tools', 'broken', '--config', config);
    expect(r.code).toBe(3);
    expectOneLine(
      r.stderr,
      /^mcp-host: Server "broken" exited with code 1 before completing the MCP handshake/,
    );
    const missing = await run(
      'tools',
      'm',
      '--config',
      writeConfig({ m: { command: 'mcp-host-no-such-cmd' } }),
    );
    expect(missing.code).toBe(3);
    expectOneLine(missing.stderr, /Command not found: "mcp-host-no-such-cmd" \(searched PATH: /);
  });
});
