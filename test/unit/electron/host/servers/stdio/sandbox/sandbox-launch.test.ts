import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sandboxStart } from '../../../../../../../electron/host/servers/stdio/sandbox/sandbox-launch.js';
import type { SandboxServices } from '../../../../../../../electron/host/servers/stdio/sandbox/sandbox-launch.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function services(helpers: { bwrap: string; socat: string }): SandboxServices {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-launch-'));
  dirs.push(dir);
  return {
    appDataDir: join(dir, 'data'),
    stateRoot: join(dir, 'data', 'server-state'),
    home: join(dir, 'home'),
    availability: () => Promise.resolve({ available: true, ...helpers }),
  };
}

const launch = { command: process.execPath, args: ['server.mjs'], env: { PATH: process.env.PATH ?? '' } };
const config = { command: process.execPath, args: ['server.mjs'] };

describe('sandboxStart', () => {
  it('fails with one line when bubblewrap went away after it was found, never running the server unconfined', async () => {
    const gone = join(tmpdir(), 'no-such-dir-7a1', 'bwrap');
    const started = sandboxStart(
      'files',
      config,
      'id',
      launch,
      services({ bwrap: gone, socat: '/usr/bin/true' }),
    );
    await expect(started).rejects.toThrow(
      `The sandbox's bubblewrap (${gone}) is gone since the app started: install bubblewrap again, or turn the sandbox off for this server in its Settings`,
    );
  });

  it("says the same of socat, which carries the server's network", async () => {
    const gone = join(tmpdir(), 'no-such-dir-7a1', 'socat');
    const started = sandboxStart(
      'files',
      config,
      'id',
      launch,
      services({ bwrap: '/usr/bin/true', socat: gone }),
    );
    await expect(started).rejects.toThrow(
      /The sandbox's socat \(.*\) is gone since the app started: install socat again/,
    );
  });

  it('turned off for the server: runs it as it is, and says so', async () => {
    const start = await sandboxStart(
      'files',
      { ...config, sandbox: { enabled: false } },
      'id',
      launch,
      services({ bwrap: '/nowhere/bwrap', socat: '/nowhere/socat' }),
    );
    expect(start.sandbox).toEqual({ state: 'off', reason: 'turned off for this server' });
    expect(start.launch).toBe(launch);
  });
});
