import { execFile, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { getPriority } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOWER_PRIORITY } from '../../electron/host/servers/stdio/process-priority.js';
import { fixtureServer } from '../helpers/servers.js';

// The sandbox as a person runs it: not as root. Root and a normal user take
// different paths through bubblewrap (a normal user's sandbox is built in a
// user namespace, root's drops its capabilities), so this suite runs the
// built CLI as the unprivileged user "nobody" (uid 65534, through setpriv)
// when the tests run as root, and as the current user otherwise. The fake
// home, its ~/.ssh canary and the data folder belong to that user.

const cli = fileURLToPath(new URL('../../dist/cli/mcp-host.mjs', import.meta.url));
const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;
const canDrop = !asRoot || spawnSync('setpriv', ['--version']).status === 0;

const root = mkdtempSync('/var/tmp/mcp-sandbox-user-');
const home = join(root, 'home');
const outside = join(root, 'outside.txt');
const SECRET = 'CANARY-USER-SSH-61d2';
const APP_SECRET = 'CANARY-USER-APP-0c4e';
let config = '';
let appFile = '';
let canary: Server;
let loopbackConnections = 0;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The CLI as the normal user, with the fake home. */
function run(...args: string[]): Promise<Run> {
  const command = asRoot ? 'setpriv' : process.execPath;
  const prefix = asRoot
    ? [`--reuid=${String(NOBODY)}`, `--regid=${String(NOBODY)}`, '--clear-groups', '--', process.execPath]
    : [];
  return new Promise((resolve) => {
    execFile(
      command,
      [...prefix, cli, ...args, '--config', config],
      { timeout: 90_000, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Owned by the normal user (when the tests run as root), so its sandbox can use it. */
function own(path: string): void {
  if (asRoot) chownSync(path, NOBODY, NOBODY);
}

beforeAll(async () => {
  if (!existsSync(cli)) throw new Error('dist/cli/mcp-host.mjs is missing: run `npm run build` first');
  chmodSync(root, 0o755);
  own(root);
  mkdirSync(join(home, '.ssh'), { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_ed25519'), SECRET);
  // The data folder the CLI uses for this home (XDG_CONFIG_HOME is not passed on): the app's secrets.
  const dataDir = join(home, '.config', 'MCP Host');
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  appFile = join(dataDir, 'oauth-tokens.json');
  writeFileSync(appFile, APP_SECRET);
  for (const path of [
    home,
    join(home, '.ssh'),
    join(home, '.ssh', 'id_ed25519'),
    join(home, '.config'),
    dataDir,
    appFile,
  ])
    own(path);
  canary = createServer((socket) => {
    loopbackConnections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
  const address = canary.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  config = join(root, 'mcp-servers.json');
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: {
        prober: {
          ...fixtureServer('sandbox-prober.mjs'),
          env: {
            HOME: home,
            PROBE_APP_FILE: appFile,
            PROBE_OUTSIDE: outside,
            PROBE_PORT: String(port),
            PROBE_HOST: 'undeclared.example.com',
          },
        },
        priority: fixtureServer('priority-server.mjs'),
      },
    }),
  );
  own(config);
});

afterAll(() => {
  canary.close();
  rmSync(root, { recursive: true, force: true });
});

describe.runIf(process.platform === 'linux' && canDrop)(
  'the sandbox for a normal user (CLI, bubblewrap)',
  () => {
    it('runs the server sandboxed and prints the policy', async () => {
      const { code, stdout, stderr } = await run('sandbox', 'prober', '--json');
      expect(stderr).not.toMatch(/\n\s+at /);
      expect(code, stderr).toBe(0);
      const view = JSON.parse(stdout) as { state: string; policy?: { denyRead: string[] } };
      expect(view.state, stdout).toBe('on');
      expect(view.policy?.denyRead).toContain('~/.ssh');
    });

    it('blocks the secrets, the data folder, writes outside and loopback; the server keeps working', async () => {
      const { code, stdout, stderr } = await run('call', 'prober', 'probe', '--json');
      expect(code, stderr).toBe(0);
      const result = JSON.parse(stdout) as { content: { type: string; text?: string }[] };
      const text = result.content.map((block) => block.text ?? '').join('');
      const report = JSON.parse(text) as { start: string[]; now: string[] };
      expect(report.now.length).toBeGreaterThan(0);
      for (const line of [...report.start, ...report.now]) expect(line).not.toContain('ALLOWED');
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(APP_SECRET);
      expect(existsSync(outside)).toBe(false);
      expect(loopbackConnections).toBe(0);
    });

    it('runs the sandboxed server, and what it starts, below normal CPU priority', async () => {
      const { code, stdout, stderr } = await run('call', 'priority', 'priority', '--json');
      expect(code, stderr).toBe(0);
      const result = JSON.parse(stdout) as { content: { type: string; text?: string }[] };
      const lowered = String(Math.max(getPriority(), LOWER_PRIORITY));
      expect(result.content.map((block) => block.text ?? '').join('')).toBe(
        `self=${lowered} child=${lowered}`,
      );
    });
  },
);
