import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostEnvironment } from '../../electron/host/servers/stdio/login-env.js';
import { createTestHost, start } from '../helpers/host.js';
import type { TestHost } from '../helpers/host.js';
import { tempDir } from '../helpers/servers.js';

let t: TestHost | undefined;
afterEach(async () => {
  await t?.dispose();
  t = undefined;
});

/** The login shell's environment with only the given PATH: none of uv, python or python3 on it. */
const onlyPath = (path: string) => (): Promise<HostEnvironment> =>
  Promise.resolve({ all: { HOME: process.env.HOME ?? '/tmp', PATH: path }, source: 'test' });

describe.skipIf(process.platform === 'win32')('a server entry whose runtime is not installed', () => {
  it('`uvx …` without uv fails at once with one line saying what to install and how', async () => {
    t = await createTestHost(
      { git: { command: 'uvx', args: ['mcp-server-git'] } },
      { environment: onlyPath(tempDir()) },
    );
    const started = Date.now();
    const snapshot = await start(t.api, 'git');
    expect(Date.now() - started).toBeLessThan(3000);
    expect(snapshot.status).toBe('failed');
    expect(snapshot.error).toBe(
      'Server "git" needs uv (uvx), not found on this machine; install it with: curl -LsSf https://astral.sh/uv/install.sh | sh (see https://docs.astral.sh/uv/)',
    );
  });

  it('`python3 …` without Python says how to get it', async () => {
    t = await createTestHost(
      { py: { command: 'python3', args: ['-m', 'mcp_server_time'] } },
      { environment: onlyPath(tempDir()) },
    );
    const snapshot = await start(t.api, 'py');
    expect(snapshot.status).toBe('failed');
    expect(snapshot.error).toMatch(
      /^Server "py" needs Python \(python3\), not found on this machine; install Python 3 from https:\/\/www\.python\.org\/downloads\/[^\n]*$/,
    );
  });

  it('`python …` where only python3 is installed says to use python3', async () => {
    const bin = tempDir();
    const python3 = join(bin, 'python3');
    writeFileSync(python3, '#!/bin/sh\nexit 0\n');
    chmodSync(python3, 0o755);
    t = await createTestHost(
      { py: { command: 'python', args: ['-m', 'mcp_server_time'] } },
      { environment: onlyPath(bin) },
    );
    const snapshot = await start(t.api, 'py');
    expect(snapshot.status).toBe('failed');
    expect(snapshot.error).toBe(
      'Server "py" needs Python (python), not found on this machine; "python3" is installed: use it as the command',
    );
  });
});
