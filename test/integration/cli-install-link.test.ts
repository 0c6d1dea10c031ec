import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeInstallLink } from '../../electron/host/install/install-links.js';
import { cliRequestMac, newNonce, shellProof } from '../../electron/headless/proofs.js';
import { SessionFile } from '../../electron/headless/session-file.js';
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

  it('before a secret value is stored, says where it will be kept and how it is protected', async () => {
    const { home, config } = freshFolder();
    const link = makeInstallLink('needs', {
      command: 'npx',
      args: ['-y', 'some-server@1.0.0'],
      env: { TOKEN: '${input:token}' },
      inputs: [{ id: 'token', password: true }],
    });
    const shown = await run(
      home,
      'install',
      '--link',
      link,
      '--value',
      'token=s3cret-value',
      '--config',
      config,
    );
    expect(shown.code).toBe(2);
    expect(shown.stdout).toMatch(
      /Secret values: token\. (Saved credentials are kept in your system keychain\.|No system keychain is available, so saved credentials are only obfuscated \(not encrypted\) in a file in the app's data folder \(0600\): anyone with access to your user account can read them\.)\n/,
    );
    expect(shown.stdout).not.toContain('encrypted:');
    expect(shown.stdout + shown.stderr).not.toContain('s3cret-value');
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

  it('sends nothing secret to a program squatting on the remembered port: it must first prove it is the shell', async () => {
    const { home, config } = freshFolder();
    // What a squatter sees: every request, headers and body. It answers like a shell would.
    const received: string[] = [];
    const squatter = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push(`${req.method ?? ''} ${req.url ?? ''}\n${JSON.stringify(req.headers)}\n${body}`);
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ id: 'x', nonce: 'A'.repeat(43), proof: 'B'.repeat(43) }));
      });
    });
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    try {
      const port = (squatter.address() as AddressInfo).port;
      // The data folder remembers that port, as after the shell ran there and another program took it.
      mkdirSync(join(home, 'MCP Host'), { recursive: true });
      const session = new SessionFile(join(home, 'MCP Host'));
      session.rememberPorts(port, port);
      const token = session.token();
      const marker = join(tempDir(), 'ran.txt');

      const result = await run(home, 'install', '--link', markerLink(marker), '--config', config);
      expect(received.length).toBeGreaterThan(0);
      for (const request of received) expect(request).not.toContain(token);
      // Only the challenge, carrying the CLI's fresh nonce: no link, no MAC, nothing to replay at the real shell.
      expect(received.map((r) => r.split('\n')[0])).toEqual(['POST /cli/challenge']);
      expect(received[0]).not.toContain('authorization');
      expect(received[0]).toMatch(/\n\{"nonce":"[\w-]{43}"\}$/);
      expect(result.stdout).not.toContain('Sent to the running MCP Host');
      expect(result.stderr).toContain(
        `warning: something else listens on http://127.0.0.1:${String(port)} and could not prove it is this MCP Host; nothing was sent to it.`,
      );
      // It went on as if no app were running: the terminal confirmation, which needs --yes here.
      expect(result.code).toBe(2);
      expect(existsSync(marker)).toBe(false);
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
  });

  it('the shell takes links only from a caller proving it holds the token, with no Origin (never from a web page)', async () => {
    host = await createTestHost();
    const server = await serveHeadless(host.host);
    try {
      const base = `http://127.0.0.1:${String(server.port)}`;
      const url = `${base}/install-link`;
      const link = makeInstallLink('m', { command: 'npx', args: ['-y', 'x@1.0.0'] });
      const post = (headers: Record<string, string>, body: string, to = url) =>
        fetch(to, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body });
      /** A request signed over a fresh nonce from the shell, as the CLI sends it. */
      const signed = async (forLink = link) => {
        const ours = newNonce();
        const answer = (await (
          await post({}, JSON.stringify({ nonce: ours }), `${base}/cli/challenge`)
        ).json()) as {
          nonce: string;
          proof: string;
        };
        // The shell proved it holds the token, over our nonce.
        expect(answer.proof).toBe(shellProof(server.token, ours, answer.nonce));
        return {
          link: forLink,
          nonce: answer.nonce,
          mac: cliRequestMac(server.token, answer.nonce, forLink),
        };
      };
      const bearer = { Authorization: `Bearer ${server.token}` };

      expect((await post({}, JSON.stringify({ link }))).status).toBe(400);
      // The bare token is not a credential here any more.
      expect((await post(bearer, JSON.stringify({ link }))).status).toBe(400);
      const forged = { link, nonce: newNonce(), mac: cliRequestMac(server.token, newNonce(), link) };
      expect((await post({}, JSON.stringify(forged))).status).toBe(401);
      const wrongKey = await signed();
      wrongKey.mac = cliRequestMac('0'.repeat(64), wrongKey.nonce, link);
      expect((await post({}, JSON.stringify(wrongKey))).status).toBe(401);
      // A MAC over another link does not carry this one.
      const swapped = { ...(await signed('mcp-host://install?other')), link };
      expect((await post({}, JSON.stringify(swapped))).status).toBe(401);
      expect((await post({ Origin: 'https://evil.example' }, JSON.stringify(await signed()))).status).toBe(
        403,
      );
      expect(
        (await post({ Origin: `http://127.0.0.1:${String(server.port)}` }, JSON.stringify(await signed())))
          .status,
      ).toBe(403);
      expect(
        (
          await post(
            { Origin: 'https://evil.example' },
            JSON.stringify({ nonce: newNonce() }),
            `${base}/cli/challenge`,
          )
        ).status,
      ).toBe(403);
      expect((await fetch(url)).status).toBe(405);
      expect((await post({ 'Content-Type': 'text/plain' }, JSON.stringify(await signed()))).status).toBe(415);
      expect((await post({}, 'x'.repeat(64 * 1024))).status).toBe(413);
      const refused = await post({}, JSON.stringify(await signed('mcp-host://install?config=%%')));
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { error: string }).error).toMatch(
        /^This install link cannot be used/,
      );
      expect(host.events.filter((e) => e.event === 'installRequested')).toHaveLength(0);

      const request = JSON.stringify(await signed());
      const accepted = await post({}, request);
      expect(accepted.status).toBe(200);
      const { id } = (await accepted.json()) as { id: string };
      const announced = host.events.find((e) => e.event === 'installRequested')?.payload as PendingInstall;
      expect(announced.id).toBe(id);
      // A recorded request cannot be replayed: the shell's nonce was used.
      expect((await post({}, request)).status).toBe(401);
      expect(JSON.parse(readFileSync(host.configPath, 'utf8'))).toEqual({ mcpServers: {} });
    } finally {
      await server.close();
    }
  });
});
