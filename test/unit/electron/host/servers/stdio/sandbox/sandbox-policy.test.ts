import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  defaultPolicy,
  folderArguments,
  summarize,
  type PolicyInput,
} from '../../../../../../../electron/host/servers/stdio/sandbox/sandbox-policy.js';
import { bwrapArguments } from '../../../../../../../electron/host/servers/stdio/sandbox/bwrap-launch.js';

const root = mkdtempSync('/var/tmp/mcp-policy-test-');
const home = join(root, 'home');
for (const dir of ['.ssh', '.aws', '.config/gcloud', '.kube', '.gnupg', '.mozilla', '.docker', 'work'])
  mkdirSync(join(home, dir), { recursive: true });
for (const file of ['.npmrc', '.pypirc', '.bash_history', '.docker/config.json'])
  writeFileSync(join(home, file), 'x');

const input = (over: Partial<PolicyInput> = {}): PolicyInput => ({
  home,
  appDataDir: join(root, 'data'),
  stateFolder: join(root, 'data/server-state/s-1/data'),
  privateTmp: join(root, 'data/server-state/s-1/tmp'),
  launcher: undefined,
  command: 'node',
  args: [],
  roots: [],
  cwd: undefined,
  config: undefined,
  ...over,
});

describe('default sandbox policy', () => {
  it('hides the secrets of the home folder and the app data folder', () => {
    const policy = defaultPolicy(input());
    for (const dir of ['.ssh', '.aws', '.config/gcloud', '.kube', '.gnupg', '.mozilla', '.docker'])
      expect(policy.denyDirs).toContain(join(home, dir));
    for (const file of ['.npmrc', '.pypirc', '.bash_history', '.docker/config.json'])
      expect(policy.denyFiles).toContain(join(home, file));
    expect(policy.hideDirs).toEqual([join(root, 'data')]);
  });

  it('writes only its state folder and private tmp by default, and reaches no host without asking', () => {
    const policy = defaultPolicy(input());
    expect(policy.write).toEqual([]);
    expect(policy.allowWrite).toEqual([]);
    expect(policy.network).toMatchObject({ mode: 'filtered', hosts: [] });
    expect(policy.network.reason).toContain('asked');
    expect(policy.hosts).toEqual({ allow: [], deny: [], download: [] });
    expect(summarize(policy, home).write).toEqual([policy.stateFolder, '/tmp (private)']);
  });

  it('grants its roots, folder arguments and the launcher cache, and lets a launcher download from its registry', () => {
    const work = join(home, 'work');
    const policy = defaultPolicy(
      input({ launcher: 'npx', args: ['-y', 'pkg', work, '/etc/hostname'], roots: [`file://${work}`] }),
    );
    expect(policy.write).toEqual([work, join(home, '.npm')]);
    expect(policy.network.mode).toBe('filtered');
    expect(policy.network.hosts).toEqual(['registry.npmjs.org']);
    expect(policy.network.reason).toContain('registry.npmjs.org');
    expect(policy.hosts).toEqual({ allow: [], deny: [], download: ['registry.npmjs.org'] });
    expect(defaultPolicy(input({ launcher: 'uvx' })).hosts.download).toEqual([
      'pypi.org',
      'files.pythonhosted.org',
    ]);
  });

  it('lays what the person allowed over the defaults, ~ expanded', () => {
    const policy = defaultPolicy(
      input({
        config: {
          allowRead: ['~/.aws/config'],
          allowWrite: ['~/work'],
          allowHosts: ['api.github.com'],
          denyHosts: ['tracker.example.com'],
        },
      }),
    );
    expect(policy.allowRead).toEqual([join(home, '.aws/config')]);
    expect(policy.allowWrite).toEqual([join(home, 'work')]);
    expect(policy.network).toMatchObject({
      mode: 'filtered',
      hosts: ['api.github.com'],
      denied: ['tracker.example.com'],
    });
    expect(policy.hosts).toEqual({ allow: ['api.github.com'], deny: ['tracker.example.com'], download: [] });
  });

  it('never takes / or a file for a folder argument', () => {
    expect(folderArguments(['/', '/etc/hostname', 'relative', `--root=${home}`], home)).toEqual([home]);
  });

  it("re-exposes a bundle's own folder inside the hidden data folder", () => {
    const bundle = join(root, 'data/bundles/acme');
    mkdirSync(bundle, { recursive: true });
    const policy = defaultPolicy(input({ args: [join(bundle, 'server/index.js')] }));
    expect(policy.exposeDirs).toEqual([bundle]);
  });

  it('keeps a program or marker under the private /tmp readable, and a granted /tmp folder writable', () => {
    const dir = mkdtempSync('/tmp/mcp-policy-test-');
    const script = join(dir, 'server.mjs');
    writeFileSync(script, '');
    expect(defaultPolicy(input({ command: script })).tmpDirs).toEqual([dir]);
    expect(defaultPolicy(input({ args: [join(dir, 'marker-to-come')] })).tmpDirs).toEqual([dir]);
    const granted = defaultPolicy(input({ args: [script, dir] }));
    expect(granted.write).toEqual([dir]);
    expect(granted.tmpDirs).toEqual([]);
  });

  it('keeps the whole /tmp checkout a program runs from readable (its node_modules), with its secrets still masked', () => {
    const checkout = mkdtempSync('/tmp/mcp-policy-checkout-');
    const script = join(checkout, 'node_modules/some-server/dist/index.js');
    mkdirSync(join(checkout, 'node_modules/some-server/dist'), { recursive: true });
    writeFileSync(script, '');
    const tmpHome = join(checkout, 'home');
    mkdirSync(join(tmpHome, '.ssh'), { recursive: true });
    const policy = defaultPolicy(input({ command: 'node', args: [script], home: tmpHome }));
    expect(policy.tmpDirs).toEqual([checkout]);
    expect(policy.denyDirs).toContain(join(tmpHome, '.ssh'));
    // bwrap applies mounts in order: the checkout first, the mask over its .ssh after it.
    const args = bwrapArguments(policy);
    const exposed = args.findIndex((a, i) => a === checkout && args[i - 1] === '--ro-bind-try');
    const masked = args.indexOf(join(tmpHome, '.ssh'));
    expect(exposed).toBeGreaterThan(args.indexOf('/tmp'));
    expect(masked).toBeGreaterThan(exposed);
  });

  it('shows the home folder as ~', () => {
    const summary = summarize(defaultPolicy(input()), home);
    expect(summary.denyRead).toContain('~/.ssh');
    expect(summary.denyRead).toContain('~/.npmrc');
  });
});
