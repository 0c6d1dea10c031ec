import { execFile } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { echoManifest, packBundle, selfSignedCertificate, signBundle, tamper } from '../helpers/bundles.js';
import { tempDir, writeConfig } from '../helpers/servers.js';

/**
 * `mcp-host install <file.mcpb>` and `mcp-host uninstall` on the built CLI,
 * in a data folder of their own (XDG_CONFIG_HOME), without a terminal: the
 * settings come from --set and the launch confirmation from --yes.
 */

const cli = fileURLToPath(new URL('../../dist/cli/mcp-host.mjs', import.meta.url));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(home: string, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cli, ...args],
      { timeout: 60_000, env: { ...process.env, XDG_CONFIG_HOME: home, MCP_HOST_SKIP_LOGIN_SHELL: '1' } },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
      },
    );
  });
}

let bundle: string;
beforeAll(async () => {
  if (!existsSync(cli)) throw new Error('dist/cli/mcp-host.mjs is missing: run `npm run build` first');
  bundle = await packBundle(
    echoManifest('1.0.0', { description: 'Reports settings.\u001b]0;pwned\u0007\u001b[2J Then more.' }),
  );
}, 60_000);

describe('mcp-host install / uninstall', () => {
  it('prints the bundle inertly, installs it with --set and --yes, runs it, and uninstalls it', async () => {
    const home = tempDir();
    const config = writeConfig({});
    const root = tempDir();
    const installed = await run(
      home,
      'install',
      bundle,
      '--config',
      config,
      '--set',
      'api_key=sk-cli',
      '--set',
      `root=${root}`,
      '--yes',
    );
    expect(installed.stderr).toBe('');
    expect(installed.code).toBe(0);
    expect(installed.stdout).toContain('Settings Echo 1.0.0 by MCP Host tests');
    expect(installed.stdout).toContain('Signature: not signed');
    expect(installed.stdout).toContain('Reports settings.^[]0;pwned^G^[[2J Then more.');
    expect(installed.stdout).not.toContain('\u001b');
    expect(installed.stdout).toMatch(
      /Allow "settings-echo" to run this program on your computer\?\n {2}node ".+\/server\/index\.mjs" --root /,
    );
    expect(installed.stdout).toContain(
      'Installed Settings Echo 1.0.0 as the server "settings-echo": connected (1 tool).',
    );
    expect(readFileSync(config, 'utf8')).not.toContain('sk-cli');

    const called = await run(home, 'call', 'settings-echo', 'show_settings', '--config', config, '--json');
    expect(called.code).toBe(0);
    expect(called.stdout).toContain('\\"apiKey\\":\\"sk-cli\\"');

    const removed = await run(home, 'uninstall', 'settings-echo', '--config', config);
    expect(removed).toMatchObject({ code: 0, stderr: '' });
    expect(removed.stdout).toContain('Uninstalled "settings-echo"');
    expect(readdirSync(join(home, 'MCP Host', 'bundles')).filter((n) => n !== '.incoming')).toEqual([]);
    expect(JSON.parse(readFileSync(config, 'utf8'))).toEqual({ mcpServers: {} });
  }, 90_000);

  it('without --yes and no terminal, or with a tampered signature, installs nothing (one line, exit 2)', async () => {
    const home = tempDir();
    const config = writeConfig({});
    const root = tempDir();
    const declined = await run(
      home,
      'install',
      bundle,
      '--config',
      config,
      '--set',
      'api_key=k',
      '--set',
      `root=${root}`,
    );
    expect(declined.code).toBe(2);
    expect(declined.stdout).toContain(
      'Not allowed: there is no terminal to ask; run again with --yes to allow it.',
    );
    expect(declined.stderr).toBe(
      'mcp-host: Starting "settings-echo" was not allowed, so nothing was installed\n',
    );

    const signed = await packBundle(echoManifest('1.0.0'));
    signBundle(signed, selfSignedCertificate());
    tamper(signed);
    const invalid = await run(home, 'install', signed, '--config', config, '--yes');
    expect(invalid.code).toBe(2);
    expect(invalid.stdout).toContain('Signature: INVALID: the file was changed after it was signed');
    expect(invalid.stderr).toMatch(/^mcp-host: Not installed: The signature is invalid .*\n$/);

    const missing = await run(home, 'install', join(home, 'nope.mcpb'), '--config', config, '--yes');
    expect(missing).toMatchObject({
      code: 2,
      stderr: `mcp-host: There is no file at ${join(home, 'nope.mcpb')}\n`,
    });
    // Neither a bundle nor a link: what install takes, in one line.
    const bare = await run(home, 'install', '--config', config);
    expect(bare).toMatchObject({
      code: 2,
      stderr: "mcp-host: install takes a .mcpb bundle file or --link '<mcp-host://install?…>'\n",
    });
    expect(JSON.parse(readFileSync(config, 'utf8'))).toEqual({ mcpServers: {} });
    const bundles = join(home, 'MCP Host', 'bundles');
    expect(existsSync(bundles) ? readdirSync(bundles).filter((n) => n !== '.incoming') : []).toEqual([]);
  }, 90_000);
});
