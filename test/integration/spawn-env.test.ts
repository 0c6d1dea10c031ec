import { dirname, delimiter } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostEnvironment } from '../../electron/host/servers/stdio/login-env.js';
import { createTestHost, start } from '../helpers/host.js';
import type { TestHost } from '../helpers/host.js';
import { rawServerEntry, tempDir } from '../helpers/servers.js';

let t: TestHost | undefined;
afterEach(async () => {
  await t?.dispose();
  t = undefined;
});

/** A host environment as the login shell would give it, minus whatever PATH says. */
const environment = (vars: Record<string, string>) => (): Promise<HostEnvironment> =>
  Promise.resolve({ all: { HOME: process.env.HOME ?? '/tmp', ...vars }, source: 'test' });

const workspace = process.cwd();

describe('spawning like a desktop app', () => {
  it('runs `node` on the app runtime when the PATH has no node, and says so', async () => {
    t = await createTestHost(
      { raw: { command: 'node', args: [rawServerEntry] } },
      { environment: environment({ PATH: '/nonexistent-bin' }) },
    );
    const snapshot = await start(t.api, 'raw');
    expect(snapshot.status).toBe('connected');
    expect(snapshot.runtime).toEqual({
      source: 'app-runtime',
      executable: process.execPath,
      note: `node not found on PATH: using the app's own runtime (Node ${process.version})`,
    });
    expect(snapshot.stderrTail[0]).toBe(`[host] ${snapshot.runtime?.note ?? ''}`);
  });

  it('runs `npx` with the npm beside the app runtime when the PATH has no npx', async () => {
    t = await createTestHost(
      { everything: { command: 'npx', args: ['--no', 'mcp-server-everything', 'stdio'], cwd: workspace } },
      { environment: environment({ PATH: '/nonexistent-bin' }) },
    );
    const snapshot = await start(t.api, 'everything');
    expect(snapshot.error).toBeUndefined();
    expect(snapshot.status).toBe('connected');
    expect(snapshot.runtime?.source).toBe('app-runtime');
    expect(snapshot.runtime?.note).toMatch(/^npx not found on PATH/);
  });

  it('uses the system node found on the login-shell PATH first', async () => {
    t = await createTestHost(
      { raw: { command: 'node', args: [rawServerEntry] } },
      { environment: environment({ PATH: ['/nonexistent-bin', dirname(process.execPath)].join(delimiter) }) },
    );
    const snapshot = await start(t.api, 'raw');
    expect(snapshot.runtime).toEqual({ source: 'path', executable: `${dirname(process.execPath)}/node` });
  });

  it('expands ${env:NAME} in command, args, env values and cwd from the host environment', async () => {
    const dir = tempDir();
    t = await createTestHost(
      {
        raw: {
          command: '${env:NODE_BIN}',
          args: ['${env:FIXTURE_DIR}/raw-server.mjs'],
          env: { FIXTURE_GREETING: 'hello ${env:WHO}' },
          cwd: '${env:WORK}',
        },
      },
      {
        environment: environment({
          PATH: '/usr/bin',
          NODE_BIN: process.execPath,
          FIXTURE_DIR: dirname(rawServerEntry),
          WHO: 'world',
          WORK: dir,
        }),
      },
    );
    const snapshot = await start(t.api, 'raw');
    expect(snapshot.status).toBe('connected');
    expect(snapshot.stderrTail).toContain('greeting hello world');
    expect(snapshot.stderrTail).toContain(`cwd ${dir}`);
  });

  it('names an unset ${env:NAME} instead of starting with an empty value', async () => {
    t = await createTestHost(
      { raw: { command: process.execPath, args: [rawServerEntry], env: { TOKEN: '${env:MISSING_TOKEN}' } } },
      { environment: environment({ PATH: '/usr/bin' }) },
    );
    const snapshot = await start(t.api, 'raw');
    expect(snapshot.status).toBe('failed');
    expect(snapshot.error).toBe(
      'Server "raw" env TOKEN uses ${env:MISSING_TOKEN}, but MISSING_TOKEN is not set',
    );
  });

  it('a missing command names itself and the login-shell PATH that was searched', async () => {
    t = await createTestHost(
      { gone: { command: 'uvx-not-installed' } },
      {
        environment: environment({ PATH: ['/home/someone/.local/bin', '/opt/homebrew/bin'].join(delimiter) }),
      },
    );
    const snapshot = await start(t.api, 'gone');
    expect(snapshot.status).toBe('failed');
    expect(snapshot.error).toBe(
      `Command not found: "uvx-not-installed" (searched PATH: ${['/home/someone/.local/bin', '/opt/homebrew/bin'].join(delimiter)})`,
    );
  });
});
