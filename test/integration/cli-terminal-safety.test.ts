import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureServer, writeConfig } from '../helpers/servers.js';

/** Server text printed by the CLI never reaches the terminal as control sequences. */

const cli = fileURLToPath(new URL('../../dist/cli/mcp-host.mjs', import.meta.url));
let config: string;

beforeAll(() => {
  if (!existsSync(cli)) throw new Error('dist/cli/mcp-host.mjs is missing: run `npm run build` first');
  config = writeConfig({ hostile: fixtureServer('hostile-text-server.mjs') });
});

function run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cli, ...args, '--config', config],
      { timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
      },
    );
  });
}

/** ESC, BEL, the C1 controls (CSI …) and bidi overrides: none may be printed raw. */
// eslint-disable-next-line no-control-regex -- finding control characters is the test
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/u;

describe('the CLI prints server text inert', () => {
  it.each([
    ['servers', []],
    ['servers --json', ['--json']],
    ['tools', []],
    ['tools --json', ['--json']],
    ['call say', []],
    ['call say --json', ['--json']],
    ['call fail', []],
    ['call throw', []],
  ])('%s', async (what, extra) => {
    const [command = '', tool] = what.split(' ');
    const args =
      command === 'servers'
        ? ['servers']
        : command === 'tools'
          ? ['tools', 'hostile']
          : ['call', 'hostile', tool ?? ''];
    const { stdout, stderr } = await run(...args, ...extra);
    expect(stdout + stderr).not.toMatch(CONTROL);
    expect(stdout + stderr).not.toBe('');
  });

  it('shows what was there, spelled out', async () => {
    const { stdout } = await run('call', 'hostile', 'say');
    expect(stdout).toContain('^[]0;pwned-title^G');
    expect(stdout).toContain('^[]52;c;ZWNobyBwd25lZA==^G');
    expect(stdout).toContain('[U+009B]31m');
    expect(stdout).toContain('safe[U+202E]evil');
    const json = await run('call', 'hostile', 'say', '--json');
    const parsed = JSON.parse(json.stdout) as { content: { text: string }[] };
    // JSON output keeps the exact text, escaped: a program reading it gets what the server sent.
    expect(parsed.content[0]?.text).toContain('\u009b31m');
    expect(parsed.content[0]?.text).toContain('safe\u202Eevil');
    const thrown = await run('call', 'hostile', 'throw');
    expect(thrown.stderr).toMatch(/^mcp-host: .*boom \^\[\]0;pwned-title\^G\^\[\[2J\^\[\[H/);
    expect(thrown.stderr.trim().split('\n')).toHaveLength(1);
  });
});
