import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openUrl, openUrlCommand } from '../../../../electron/host/open-url.js';
import { tempDir } from '../../../helpers/servers.js';

const attack = 'https://x.example/&calc.exe';

describe('the command that opens a URL in the browser', () => {
  it('Windows: rundll32 by full path, the URL as one argument, no cmd', () => {
    expect(openUrlCommand(attack, 'win32', { SystemRoot: 'C:\\Windows' })).toEqual({
      command: 'C:\\Windows\\System32\\rundll32.exe',
      args: ['url.dll,FileProtocolHandler', 'https://x.example/&calc.exe'],
    });
    const { command, args } = openUrlCommand('https://x.example/a b"|^c', 'win32', {});
    expect(command).not.toMatch(/cmd|powershell/i);
    // Spaces and quotes are percent-encoded by the URL parser before anything runs.
    expect(args[1]).toBe('https://x.example/a%20b%22|^c');
  });

  it('macOS: open; Linux and the rest: xdg-open', () => {
    expect(openUrlCommand(attack, 'darwin')).toEqual({ command: 'open', args: [attack] });
    expect(openUrlCommand(attack, 'linux')).toEqual({ command: 'xdg-open', args: [attack] });
    expect(openUrlCommand(attack, 'freebsd')).toEqual({ command: 'xdg-open', args: [attack] });
  });

  it('refuses anything but http and https', () => {
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'ms-settings:', 'calc.exe'])
      expect(() => openUrlCommand(url, 'win32')).toThrow();
  });
});

describe('openUrl on this machine', () => {
  const savedPath = process.env.PATH;
  afterEach(() => {
    process.env.PATH = savedPath;
  });

  it.skipIf(process.platform === 'win32')(
    'runs the opener without a shell: $(…) in the URL stays text',
    async () => {
      const bin = tempDir();
      const log = join(bin, 'args.txt');
      const marker = join(bin, 'pwned');
      const opener = process.platform === 'darwin' ? 'open' : 'xdg-open';
      writeFileSync(join(bin, opener), `#!/bin/sh\nprintf '%s\\n' "$@" > '${log}'\n`);
      chmodSync(join(bin, opener), 0o755);
      process.env.PATH = `${bin}:${savedPath ?? ''}`;
      const url = `https://x.example/$(touch$IFS${marker})&y;z`;
      await openUrl(url);
      await expect.poll(() => existsSync(log)).toBe(true);
      expect(readFileSync(log, 'utf8')).toBe(`${new URL(url).href}\n`);
      expect(existsSync(marker)).toBe(false);
    },
  );
});
