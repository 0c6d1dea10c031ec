import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkTemplate,
  manifestCommand,
  substitute,
  systemVariables,
} from '../../../../../../electron/host/install/bundle/bundle-launch.js';
import type { BundleManifest } from '../../../../../../electron/host/install/bundle/bundle-manifest.js';
import { settleValues } from '../../../../../../electron/host/install/bundle/bundle-values.js';
import { compareVersions } from '../../../../../../electron/host/install/bundle/bundle-version.js';
import { fillSecrets } from '../../../../../../electron/host/servers/stdio/setting-references.js';
import { tempDir } from '../../../../../helpers/servers.js';

/** How a bundle's manifest and the person's settings become the command line that runs. */

const manifest = (server: Partial<BundleManifest['server']> = {}): BundleManifest => ({
  manifestVersion: '0.3',
  name: 'x',
  version: '1.0.0',
  description: '',
  author: { name: 'a' },
  server: { type: 'node', entry_point: 'server/index.js', ...server },
});

describe('the command line', () => {
  const context = {
    dir: '/data/bundles/x/1.0.0-ab',
    system: systemVariables('/home/me'),
    values: { root: '/srv/files', dirs: ['/a', '/b c'], debug: true, limit: 5, odd: 'a$&b$$c' },
    sensitive: new Set(['token']),
  };

  it('substitutes the spec variables; several-valued settings become one argument each; secrets stay placeholders', () => {
    const out = substitute(
      {
        command: '${__dirname}/bin/server',
        args: [
          '--root=${user_config.root}',
          '${user_config.dirs}',
          '--debug',
          '${user_config.debug}',
          '${user_config.unset}',
          '${HOME}${/}x',
          '${user_config.odd}',
        ],
        env: {
          TOKEN: 'Bearer ${user_config.token}',
          LIMIT: '${user_config.limit}',
          DOCS: '${DOCUMENTS}',
          OTHER: '${UNKNOWN}',
        },
      },
      context,
    );
    expect(out).toEqual({
      command: '/data/bundles/x/1.0.0-ab/bin/server',
      args: ['--root=/srv/files', '/a', '/b c', '--debug', 'true', `/home/me${sep}x`, 'a$&b$$c'],
      env: {
        TOKEN: 'Bearer ${user_config.token}',
        LIMIT: '5',
        DOCS: join('/home/me', 'Documents'),
        OTHER: '${UNKNOWN}',
      },
    });
    expect(() =>
      substitute({ command: 'x', args: ['--dirs=${user_config.dirs}'], env: {} }, context),
    ).toThrow('The setting "dirs" has several values, but the bundle uses it inside a longer text');
  });

  it('fills secrets in at spawn, leaving "${env:…}" inside a secret as typed', () => {
    expect(fillSecrets('Bearer ${user_config.token} ${user_config.other}', { token: '${env:HOME}$&' })).toBe(
      'Bearer ${env:HOME}$& ${user_config.other}',
    );
  });

  it('takes the platform override, or the default for the server type when mcp_config is absent', () => {
    const withOverride = manifest({
      mcp_config: {
        command: 'node',
        args: ['a.js'],
        platform_overrides: { win32: { command: 'node.exe', env: { W: '1' } } },
      },
    });
    expect(manifestCommand(withOverride, 'win32')).toEqual({
      command: 'node.exe',
      args: ['a.js'],
      env: { W: '1' },
    });
    expect(manifestCommand(withOverride, 'linux')).toEqual({ command: 'node', args: ['a.js'], env: {} });
    expect(manifestCommand(manifest({ type: 'python', entry_point: 'main.py' }), 'linux')).toEqual({
      command: 'python3',
      args: ['${__dirname}/main.py'],
      env: {},
    });
    expect(manifestCommand(manifest({ type: 'binary', entry_point: 'bin/s' })).command).toBe(
      '${__dirname}/bin/s',
    );
    expect(manifestCommand(manifest({ type: 'uv', entry_point: 'main.py' })).args).toEqual([
      'run',
      '--directory',
      '${__dirname}',
      '${__dirname}/main.py',
    ]);
  });

  it('refuses a manifest that reads the host environment', () => {
    expect(() => {
      checkTemplate({ command: 'node', args: ['${env:AWS_SECRET_ACCESS_KEY}'], env: {} });
    }).toThrow("The bundle's arguments names a variable of your environment");
    expect(() => {
      checkTemplate({ command: 'node', args: [], env: { A: 'x${ENV:HOME}' } });
    }).toThrow("The bundle's environment");
  });
});

describe('settings', () => {
  const expand = (text: string) => text.replace('${HOME}', '/home/me');
  const options = {
    key: { type: 'string', title: 'Key', description: '', sensitive: true, required: true },
    root: { type: 'directory', title: 'Root', description: '', required: true },
    n: { type: 'number', title: 'N', description: '', min: 1, max: 5, default: 2 },
    flag: { type: 'boolean', title: 'Flag', description: '' },
    paths: { type: 'directory', title: 'Paths', description: '', multiple: true },
    note: { type: 'string', title: 'Note', description: '', default: '${HOME}/notes' },
  } as const;

  it('applies defaults, checks types, bounds and folders, and splits secrets from values', async () => {
    const dir = tempDir();
    const settled = await settleValues(
      options,
      { key: 's3cret', root: dir, flag: true, paths: [dir, ''] },
      undefined,
      expand,
    );
    expect(settled).toEqual({
      values: { root: dir, n: 2, flag: true, paths: [dir], note: '/home/me/notes' },
      secrets: { key: 's3cret' },
      keptSecrets: [],
    });
    await expect(settleValues(options, { root: dir }, undefined, expand)).rejects.toThrow(
      '"Key" is required',
    );
    await expect(settleValues(options, { key: 'k', root: dir, n: 9 }, undefined, expand)).rejects.toThrow(
      '"N" must be at most 5',
    );
    await expect(settleValues(options, { key: 'k', root: dir, n: 'x' }, undefined, expand)).rejects.toThrow(
      '"N" must be a number',
    );
    await expect(
      settleValues(options, { key: 'k', root: 'relative/dir' }, undefined, expand),
    ).rejects.toThrow('is not an absolute path');
    await expect(
      settleValues(options, { key: 'k', root: join(dir, 'nope') }, undefined, expand),
    ).rejects.toThrow('there is no directory');
    await expect(
      settleValues(options, { key: 'k', root: dir, flag: 'yes' }, undefined, expand),
    ).rejects.toThrow('"Flag" must be on or off');
    await expect(settleValues(options, { key: 'k', root: dir, nope: 1 }, undefined, expand)).rejects.toThrow(
      'The bundle has no setting "nope"',
    );
    await expect(
      settleValues(options, { key: 'k', root: dir, note: '${env:GITHUB_TOKEN}' }, undefined, expand),
    ).rejects.toThrow('names a variable of your environment');
  });

  it('keeps the installed values and stored secrets on update unless given new ones', async () => {
    const dir = tempDir();
    const previous = { values: { root: dir, n: 4 }, secretKeys: new Set(['key']) };
    expect(await settleValues(options, {}, previous, expand)).toMatchObject({
      values: { root: dir, n: 4 },
      secrets: {},
      keptSecrets: ['key'],
    });
    expect(await settleValues(options, { key: 'new' }, previous, expand)).toMatchObject({
      secrets: { key: 'new' },
      keptSecrets: [],
    });
  });
});

describe('versions', () => {
  it('orders versions like semantic versioning', () => {
    expect(compareVersions('1.10.0', '1.9.9')).toBe(1);
    expect(compareVersions('1.0.0', '1.0.0')).toBe(0);
    expect(compareVersions('1.0.0-beta.2', '1.0.0')).toBe(-1);
    expect(compareVersions('1.0.0-beta.10', '1.0.0-beta.2')).toBe(1);
    expect(compareVersions('v2.0', '1.9')).toBe(1);
  });
});

describe("a bundle's environment (issue 21, findings 3 and 6)", () => {
  it('refuses variables that change what a runtime loads; a search path inside the bundle is allowed', () => {
    const template = (env: Record<string, string>) => ({ command: 'node', args: ['x.js'], env });
    expect(() => {
      checkTemplate(template({ NODE_OPTIONS: '--require ${__dirname}/x.js' }));
    }).toThrow('This bundle cannot be installed: it sets NODE_OPTIONS, which changes how programs load');
    expect(() => {
      checkTemplate(template({ npm_config_registry: 'https://evil.example/' }));
    }).toThrow(/it sets npm_config_registry/);
    expect(() => {
      checkTemplate(template({ PYTHONPATH: '/usr/lib/evil' }));
    }).toThrow(/it sets PYTHONPATH/);
    expect(() => {
      checkTemplate(template({ PYTHONPATH: '${__dirname}/server/lib', API_KEY: '${user_config.key}' }));
    }).not.toThrow();
  });
});
