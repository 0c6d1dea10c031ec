import { describe, expect, it } from 'vitest';
import {
  BlockedAttempts,
  blockedAttempt,
  blockedNotice,
  type ViolationContext,
} from '../../../../../../../electron/host/servers/stdio/sandbox/sandbox-violations.js';

const context: ViolationContext = {
  home: '/home/ann',
  networkDenied: true,
  hidden: ['/home/ann/.config/mcp-host'],
  own: ['/home/ann/.config/mcp-host/server-state/s-1'],
};

describe('blocked attempts read from stderr', () => {
  it('words refusals of Node, Python and a shell', () => {
    const cases: [string, string][] = [
      ["Error: EACCES: permission denied, open '/home/ann/.ssh/id_ed25519'", 'read ~/.ssh/id_ed25519'],
      ["EROFS: read-only file system, open '/home/ann/x.txt'", 'write ~/x.txt'],
      [
        "PermissionError: [Errno 13] Permission denied: '/home/ann/.aws/credentials'",
        'read ~/.aws/credentials',
      ],
      ["OSError: [Errno 30] Read-only file system: '/etc/passwd'", 'write /etc/passwd'],
      ['sh: 1: cannot create /etc/x: Read-only file system', 'write /etc/x'],
      ['cat: /home/ann/.ssh/id_rsa: Permission denied', 'read ~/.ssh/id_rsa'],
      ['connect ECONNREFUSED 10.0.0.5:5432', 'connect to 10.0.0.5:5432'],
      ['getaddrinfo EAI_AGAIN evil.example.com', 'reach evil.example.com'],
    ];
    for (const [line, worded] of cases) expect(blockedAttempt(line, context)).toBe(worded);
  });

  it('counts a missing file as blocked only inside a hidden folder and outside its own state', () => {
    expect(
      blockedAttempt(
        "ENOENT: no such file or directory, open '/home/ann/.config/mcp-host/oauth.json'",
        context,
      ),
    ).toBe('read ~/.config/mcp-host/oauth.json');
    expect(
      blockedAttempt(
        "ENOENT: no such file or directory, open '/home/ann/.config/mcp-host/server-state/s-1/a'",
        context,
      ),
    ).toBeUndefined();
    expect(
      blockedAttempt("ENOENT: no such file or directory, open '/home/ann/notes.txt'", context),
    ).toBeUndefined();
  });

  it('does not blame the sandbox for network errors when the network is open', () => {
    expect(
      blockedAttempt('connect ECONNREFUSED 127.0.0.1:80', { ...context, networkDenied: false }),
    ).toBeUndefined();
    expect(blockedAttempt('all good', context)).toBeUndefined();
  });

  it('reports each distinct attempt once and keeps the last twenty', () => {
    const reported: string[] = [];
    const attempts = new BlockedAttempts(context, (what) => reported.push(what));
    for (let i = 0; i < 3; i++) attempts.line("EACCES: permission denied, open '/home/ann/.ssh/id'");
    for (let i = 0; i < 30; i++) attempts.line(`connect ECONNREFUSED 10.0.0.${String(i)}:1`);
    expect(reported.filter((r) => r === 'read ~/.ssh/id')).toHaveLength(1);
    expect(attempts.list).toHaveLength(20);
    expect(attempts.list.at(-1)).toBe('connect to 10.0.0.29:1');
    expect(blockedNotice(['read ~/.ssh/id', 'connect to 10.0.0.5:5432'])).toBe(
      'Sandbox blocked: read ~/.ssh/id · connect to 10.0.0.5:5432',
    );
  });
});

describe('blocked attempts since a moment', () => {
  it('lists each attempt seen at or after it once, repeats included, oldest first', () => {
    let clock = 0;
    const attempts = new BlockedAttempts(
      context,
      () => undefined,
      () => clock,
    );
    attempts.line("Error: EACCES: permission denied, open '/home/ann/.ssh/id_ed25519'");
    clock = 10;
    attempts.line('connect ECONNREFUSED 10.0.0.5:5432');
    attempts.line("Error: EACCES: permission denied, open '/home/ann/.ssh/id_ed25519'");
    attempts.line('nothing to see');
    expect(attempts.since(10)).toEqual(['connect to 10.0.0.5:5432', 'read ~/.ssh/id_ed25519']);
    expect(attempts.since(11)).toEqual([]);
    expect(attempts.since(0)).toEqual(['read ~/.ssh/id_ed25519', 'connect to 10.0.0.5:5432']);
  });
});
