import { delimiter } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  inheritedEnvironment,
  mergeEnvironments,
  resolveHostEnvironment,
} from '../../../../../../electron/host/servers/stdio/login-env.js';

describe('login-shell environment', () => {
  it('reads the real login shell of this machine and keeps a usable PATH', async () => {
    const env = await resolveHostEnvironment({ timeoutMs: 15_000 });
    expect(env.source).toMatch(/^login shell|^process environment/);
    expect(env.all.PATH?.split(delimiter)).toContain('/usr/bin');
  });

  it('lays the login shell over the process env; PATH keeps the process-only entries after the shell ones', () => {
    const merged = mergeEnvironments(
      { PATH: ['/app/bin', '/usr/bin'].join(delimiter), HOME: '/home/a', SHLVL: '1', ONLY_PROCESS: 'p' },
      { PATH: ['/home/a/.nvm/bin', '/usr/bin'].join(delimiter), HOME: '/home/a', SHLVL: '3', NVM_DIR: '/n' },
    );
    expect(merged.PATH).toBe(['/home/a/.nvm/bin', '/usr/bin', '/app/bin'].join(delimiter));
    expect(merged).toMatchObject({ NVM_DIR: '/n', ONLY_PROCESS: 'p', SHLVL: '1' });
  });

  it('falls back to the process env, saying why, when the shell does not answer in time', async () => {
    const env = await resolveHostEnvironment({
      timeoutMs: 50,
      read: () => new Promise(() => undefined),
      processEnv: { PATH: '/usr/bin', HOME: '/h' },
      platform: 'linux',
    });
    expect(env.all).toEqual({ PATH: '/usr/bin', HOME: '/h' });
    expect(env.source).toMatch(/did not answer within 50 ms/);
  });

  it('falls back when the shell fails, and skips the shell on Windows', async () => {
    const failed = await resolveHostEnvironment({
      read: () => Promise.reject(new Error('zsh: no such file')),
      processEnv: { PATH: '/usr/bin' },
      platform: 'darwin',
    });
    expect(failed.source).toMatch(/failed: zsh: no such file/);
    const windows = await resolveHostEnvironment({
      read: () => Promise.reject(new Error('never called')),
      processEnv: { Path: 'C:\\bin' },
      platform: 'win32',
    });
    expect(windows.all).toEqual({ Path: 'C:\\bin' });
  });

  it('passes servers only the inherited list, not the rest of the host environment', () => {
    const inherited = inheritedEnvironment({
      PATH: '/usr/bin',
      HOME: '/h',
      ANTHROPIC_API_KEY: 'sk-secret',
      NVM_DIR: '/n',
    });
    expect(inherited).toEqual({ PATH: '/usr/bin', HOME: '/h', NVM_DIR: '/n' });
  });
});
