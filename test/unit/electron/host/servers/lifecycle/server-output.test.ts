import { describe, expect, it } from 'vitest';
import { launcherLines, launcherOf } from '../../../../../../electron/host/servers/stdio/launcher-output.js';
import {
  ServerOutput,
  strayCountText,
} from '../../../../../../electron/host/servers/lifecycle/server-output.js';
import type { NewLogEntry } from '../../../../../../electron/host/servers/lifecycle/server-log.js';

describe('launcherOf', () => {
  it.each([
    ['npx', ['-y', 'pkg'], 'npx'],
    ['/usr/local/bin/npx', ['pkg'], 'npx'],
    ['npx.cmd', ['pkg'], 'npx'],
    ['npm', ['exec', 'pkg'], 'npm exec'],
    ['pnpm', ['dlx', 'pkg'], 'pnpm dlx'],
    ['bunx', ['pkg'], 'bunx'],
    ['uvx', ['mcp-server-fetch'], 'uvx'],
    ['uv', ['tool', 'run', 'x'], 'uvx'],
    ['yarn', ['dlx', 'pkg'], 'yarn dlx'],
    ['pipx', ['run', 'x'], 'pipx run'],
    ['docker', ['run', '-i', 'img'], 'docker run'],
  ])('%s %j runs through %s', (command, args, name) => {
    expect(launcherOf(command, args)).toEqual({ name, mayDownload: true });
  });

  it.each([
    ['node', ['server.js']],
    ['npm', ['start']],
    ['uv', ['run', 'server.py']],
    ['python', ['-m', 'server']],
    ['docker', ['exec', 'x']],
  ])('%s %j is not a launcher', (command, args) => {
    expect(launcherOf(command, args)).toBeUndefined();
  });
});

describe('launcher lines', () => {
  it('tells npm output from the server output', () => {
    const npx = launcherLines('npx', ['-y', 'x']);
    expect(npx?.test('npm warn exec The following package was not found and will be installed: x@1')).toBe(
      true,
    );
    expect(npx?.test('npm WARN deprecated inflight@1.0.6')).toBe(true);
    expect(npx?.test('npm error code E404')).toBe(true);
    expect(npx?.test('GitHub MCP Server running on stdio')).toBe(false);
    expect(npx?.test('Error: npm is great')).toBe(false);
  });

  it("tells uv's output from the server output", () => {
    const uvx = launcherLines('uvx', ['mcp-server-time']);
    expect(uvx?.test('Installed 35 packages in 25ms')).toBe(true);
    expect(uvx?.test('Resolved 12 packages in 1.2s')).toBe(true);
    expect(uvx?.test('Starting MCP time server')).toBe(false);
  });
});

describe('ServerOutput', () => {
  const npxLines = launcherLines('npx', ['-y', 'x']);

  it("quotes the server's own last words, not npm's", () => {
    const output = new ServerOutput();
    output.newProcess(npxLines);
    output.stderrLine('npm warn exec The following package was not found and will be installed: x@1');
    output.stderrLine('fatal: token missing');
    output.stderrLine('npm warn deprecated y@1');
    expect(output.lastWords()).toBe('Last stderr: fatal: token missing');
    expect(output.stderrTail).toEqual([
      '[npx] npm warn exec The following package was not found and will be installed: x@1',
      'fatal: token missing',
      '[npx] npm warn deprecated y@1',
    ]);
  });

  it('labels the launcher when it alone spoke, and adds its errors to the server words', () => {
    const quiet = new ServerOutput();
    quiet.newProcess(npxLines);
    quiet.stderrLine('npm error 404 Not Found - GET https://registry.npmjs.org/nope');
    expect(quiet.lastWords()).toBe(
      'npx (the launcher, not the server) printed: npm error 404 Not Found - GET https://registry.npmjs.org/nope',
    );
    const both = new ServerOutput();
    both.newProcess(npxLines);
    both.stderrLine('starting');
    both.stderrLine('npm warn harmless');
    both.stderrLine('npm error ENOSPC');
    expect(both.lastWords()).toBe(
      'Last stderr: starting. npx (the launcher, not the server) printed: npm error ENOSPC',
    );
  });

  it('counts stray stdout lines, keeps the first three, logs a bounded number, quotes them and a pending prompt', () => {
    const logged: NewLogEntry[] = [];
    const output = new ServerOutput((entry) => logged.push(entry));
    output.newProcess(undefined);
    for (let i = 1; i <= 1000; i++) output.strayLine(`line ${String(i)}`);
    expect(output.strayStdout).toEqual({ count: 1000, first: ['line 1', 'line 2', 'line 3'] });
    expect(logged.filter((e) => e.source === 'stdout')).toHaveLength(200);
    expect(logged.at(-1)?.text).toMatch(/^wrote 1000 lines that are not MCP messages to stdout/);
    expect(output.lastWords('Ok to proceed? (y) ')).toBe(
      'It wrote to stdout: "line 1" | "line 2" | "line 3" (wrote 1000 lines that are not MCP messages to stdout). It is waiting after printing: "Ok to proceed? (y)"',
    );
    output.newProcess(undefined);
    expect(output.strayStdout).toBeUndefined();
  });

  it('says each repeated complaint once, and keeps server lines that start with a bracket', () => {
    const output = new ServerOutput();
    output.stderrLine('[MyServer] boom');
    output.stderrLine('[MyServer] boom');
    output.note('a host note');
    expect(output.lastWords()).toBe('Last stderr: [MyServer] boom');
    expect(strayCountText(1)).toBe('wrote 1 line that is not MCP messages to stdout');
  });
});
