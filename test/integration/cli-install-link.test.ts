import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeInstallLink } from '../../electron/host/install/install-links.js';
import type { PendingInstall } from '../../shared/model/registry.js';
import { createTestHost } from '../helpers/host.js';
import type { TestHost } from '../helpers/host.js';
import { serveHeadless } from '../helpers/headless-server.js';
import { startHeadlessProcess } from '../helpers/headless-process.js';
import type { HeadlessProcess } from '../helpers/headless-process.js';
import { everything, tempDir } from '../helpers/servers.js';

const cli = fileURLToPath(new URL('../../dist/cli/mcp-host.mjs', import.meta.url));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The built CLI on its own data folder (XDG_CONFIG_HOME), with no terminal (stdin is not a TTY). */
function run(dataHome: string, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cli, ...args],
      { timeout: 60_000, env: { ...process.env, XDG_CONFIG_HOME: dataHome, MCP_HOST_SKIP_LOGIN_SHELL: '1' } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

function freshFolder(): { home: string; config: string } {
  const home = tempDir();
  const config = join(home, 'mcp-servers.json');
  writeFileSync(config, JSON.stringify({ mcpServers: {} }));
  return { home, config };
}

const markerLink = (marker: string) =>
  makeInstallLink('marker', {
    command: process.execPath,
    args: ['-e', `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran')`],
  });

let running: HeadlessProcess | undefined;
let host: TestHost | undefined;
beforeAll(() => {
  if (!existsSync(cli)) throw new Error('dist/cli/mcp-host.mjs is missing: run `npm run build` first');
});
afterEach(async () => {
  await running?.stop();
  running = undefined;
  await host?.dispose();
  host = undefined;
});

describe('mcp-host install --link (no app running)', () => {
  it('without a terminal and without --yes, shows the exact command and installs nothing', async () => {
    const { home, config } = freshFolder();
    const marker = join(tempDir(), 'ran.txt');
    const result = await run(home, 'install', '--link', markerLink(marker), '--config', config);
    expect(result.code).toBe(2);
    expect(result.stdout).toContain(`Command: ${process.execPath} -e "require('node:fs').writeFileSync(`);
    expect(result.stdout).toContain('Warning: This link runs');
    expect(result.stderr.trim()).toBe(
      'mcp-host: Not installed: confirm with --yes (there is no terminal to ask in)',
    );
    expect(JSON.parse(readFileSync(config, 'utf8'))).toEqual({ mcpServers: {} });
    expect(existsSync(marker)).toBe(false);
  });

  it('shows every variable the link sets with its value (a typed password masked), and options it adds', async () => {
    const { home, config } = freshFolder();
    const link = makeInstallLink('memory', {
      command: 'npx',
      args: ['-y', '--loglevel', 'warn', '@modelcontextprotocol/server-memory@1.0.0'],
      env: { MEMORY_FILE_PATH: '/tmp/m.json\nFAKE=1', TOKEN: '${input:token}' },
      inputs: [{ id: 'token', password: true }],
    });
    const result = await run(
      home,
      'install',
      '--link',
      link,
      '--value',
      'token=s3cret-value',
      '--config',
      config,
    );
    expect(result.code).toBe(2);
    expect(result.stdout).toContain(
      'Warning: This link adds options to npx: --loglevel warn. Read them before installing',
    );
    // One line per variable; a line break in a value is shown, not obeyed.
    expect(result.stdout).toContain(
      '  Environment variables:\n    MEMORY_FILE_PATH=/tmp/m.json^JFAKE=1\n    TOKEN=••••••\n',
    );
    expect(result.stdout).not.toContain('s3cret-value');
    expect(JSON.parse(readFileSync(config, 'utf8'))).toEqual({ mcpServers: {} });
  });

  it('--yes installs exactly what it showed, and the server connects', async () => {
    const { home, config } = freshFolder();
    const entry = everything();
    const link = makeInstallLink('everything', { command: entry.command, args: entry.args });
    const result = await run(home, 'install', '--link', link, '--yes', '--config', config);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain(`Command: ${entry.command} ${(entry.args ?? []).join(' ')}`);
    expect(result.stdout).toContain('Installed "everything" (connected).');
    expect(result.code).toBe(0);
    expect(JSON.parse(readFileSync(config, 'utf8'))).toEqual({
      mcpServers: { everything: { command: entry.command, args: entry.args } },
    });
  });

  it('an input it needs is asked for with --value; a bad link is one line', async () => {
    const { home, config } = freshFolder();
    const link = makeInstallLink('needs', {
      command: 'npx',
      args: ['-y', 'some-server@1.0.0'],
      env: { TOKEN: '${input:token}' },
      inputs: [{ id: 'token', password: true }],
    });
    const missing = await run(home, 'install', '--link', link, '--yes', '--config', config);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim()).toBe(
      'mcp-host: This install needs a value for token: pass --value token=…',
    );
    const bad = await run(home, 'install', '--link', 'mcp-host://install?config=@@', '--config', config);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe('mcp-host: This install link cannot be used: "config" is not base64url');
    expect(JSON.parse(readFileSync(config, 'utf8'))).toEqual({ mcpServers: {} });
  });
});

describe('mcp-host install --link with the app running', () => {
  it('hands the link to the running shell of the same data folder, which holds it for its page; nothing runs', async () => {
    running = await startHeadlessProcess();
    const marker = join(tempDir(), 'ran.txt');
    const result = await run(running.dir, 'install', '--link', markerLink(marker));
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      `Sent to the running MCP Host (http://127.0.0.1:${String(running.port)}). Confirm the install in its page.\n`,
    );
    expect(result.code).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(existsSync(marker)).toBe(false);
    expect(JSON.parse(readFileSync(join(running.dir, 'mcp-servers.json'), 'utf8'))).toEqual({
      mcpServers: {},
    });
  });

  it('the shell takes links only from a caller with its token and no Origin (never from a web page)', async () => {
    host = await createTestHost();
    const server = await serveHeadless(host.host);
    try {
      const url = `http://127.0.0.1:${String(server.port)}/install-link`;
      const link = makeInstallLink('m', { command: 'npx', args: ['-y', 'x@1.0.0'] });
      const post = (headers: Record<string, string>, body = JSON.stringify({ link })) =>
        fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body });
      const bearer = { Authorization: `Bearer ${server.token}` };

      expect((await post({})).status).toBe(401);
      expect((await post({ Authorization: 'Bearer nope' })).status).toBe(401);
      expect((await fetch(`${url}?token=${server.token}`, { method: 'POST', body: '{}' })).status).toBe(401);
      expect((await post({ ...bearer, Origin: 'https://evil.example' })).status).toBe(403);
      expect((await post({ ...bearer, Origin: `http://127.0.0.1:${String(server.port)}` })).status).toBe(403);
      expect((await fetch(url, { headers: bearer })).status).toBe(405);
      expect((await post({ ...bearer, 'Content-Type': 'text/plain' })).status).toBe(415);
      expect((await post(bearer, 'x'.repeat(64 * 1024))).status).toBe(413);
      const refused = await post(bearer, JSON.stringify({ link: 'mcp-host://install?config=%%' }));
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { error: string }).error).toMatch(
        /^This install link cannot be used/,
      );
      expect(host.events.filter((e) => e.event === 'installRequested')).toHaveLength(0);

      const accepted = await post(bearer);
      expect(accepted.status).toBe(200);
      const { id } = (await accepted.json()) as { id: string };
      const announced = host.events.find((e) => e.event === 'installRequested')?.payload as PendingInstall;
      expect(announced.id).toBe(id);
      expect(JSON.parse(readFileSync(host.configPath, 'utf8'))).toEqual({ mcpServers: {} });
    } finally {
      await server.close();
    }
  });
});
