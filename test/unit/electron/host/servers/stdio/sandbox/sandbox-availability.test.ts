import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectSandbox } from '../../../../../../../electron/host/servers/stdio/sandbox/sandbox-availability.js';

describe('sandbox availability', () => {
  it('is off on an OS without a backend, saying so', async () => {
    const found = await detectSandbox({ platform: 'win32', path: '' });
    expect(found).toMatchObject({ available: false, reason: 'the sandbox is not supported on win32 yet' });
  });

  it('says bubblewrap is missing and how to install it', async () => {
    expect(await detectSandbox({ platform: 'linux', path: '/nonexistent', systemDirs: [] })).toEqual({
      available: false,
      reason: 'bubblewrap is not installed',
      fix: 'install bubblewrap (e.g. sudo apt install bubblewrap), then restart the server',
    });
  });

  it('finds the real bubblewrap and checks that it runs', async () => {
    expect(await detectSandbox({ platform: 'linux', path: '/usr/bin' })).toEqual({
      available: true,
      bwrap: '/usr/bin/bwrap',
      socat: '/usr/bin/socat',
    });
  });

  it('says socat is missing (the network of sandboxed servers) and how to install it', async () => {
    const dir = mkdtempSync('/var/tmp/mcp-bwrap-test-');
    // The real bubblewrap, on a PATH without socat.
    symlinkSync('/usr/bin/bwrap', join(dir, 'bwrap'));
    expect(await detectSandbox({ platform: 'linux', path: dir, systemDirs: [] })).toEqual({
      available: false,
      reason: 'socat is not installed (it carries the network of sandboxed servers)',
      fix: 'install socat (e.g. sudo apt install socat), then restart the server',
    });
  });

  it('names user namespaces and the sysctl when bubblewrap cannot create them', async () => {
    const found = await detectSandbox({
      platform: 'linux',
      path: '/usr/bin',
      tryRun: () =>
        Promise.resolve(
          'bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces',
        ),
    });
    expect(found).toMatchObject({
      available: false,
      reason: expect.stringMatching(/^user namespaces are disabled/),
    });
    if (!found.available) expect(found.fix).toContain('kernel.unprivileged_userns_clone=1');
  });

  it('runs a broken bubblewrap for real and reports it with a fix', async () => {
    const dir = mkdtempSync('/var/tmp/mcp-bwrap-test-');
    // A "bwrap" that fails like a broken install: found on the PATH, exits 1.
    writeFileSync(join(dir, 'bwrap'), '#!/bin/sh\necho "bwrap: execvp true: broken" >&2\nexit 1\n', {
      mode: 0o755,
    });
    symlinkSync('/usr/bin/socat', join(dir, 'socat'));
    const found = await detectSandbox({ platform: 'linux', path: dir, systemDirs: [] });
    expect(found).toMatchObject({
      available: false,
      reason: 'bubblewrap does not work here (bwrap: execvp true: broken)',
    });
  });
});
