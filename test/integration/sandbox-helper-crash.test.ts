import { describe, expect, it } from 'vitest';
import { start, value, waitForSnapshot } from '../helpers/host.js';
import { everything } from '../helpers/servers.js';
import { hostsDisposedAfterEach } from '../helpers/tracked-hosts.js';

// The sandbox's helper dying under a running server: the process the host
// starts for a sandboxed server is bubblewrap. Killed mid-session, that one
// server ends with one clear line and is restarted, sandboxed again; the
// other servers and the host carry on.

const hosts = hostsDisposedAfterEach();

describe('a sandbox helper that crashes mid-session (real bubblewrap, server-everything)', () => {
  it('ends that server with one line naming the sandbox; the other keeps answering; the restart is sandboxed', async () => {
    const t = await hosts.create({ victim: everything(), bystander: everything() });
    const victim = await start(t.api, 'victim');
    await start(t.api, 'bystander');
    expect(victim.sandbox?.state).toBe('on');
    const pid = victim.pid ?? 0;
    expect(pid).toBeGreaterThan(0);
    const from = t.events.length;

    process.kill(pid, 'SIGKILL');

    const ended = await waitForSnapshot(
      t,
      'victim',
      (s) => s.status !== 'connected' && s.error !== undefined,
      'victim ended',
      from,
    );
    // One line: how it ended, then the server's last words.
    expect(ended.error?.split('\n')).toHaveLength(1);
    expect(ended.error).toMatch(
      /^Server "victim" stopped unexpectedly: its sandbox \(bubblewrap\) was killed by SIGKILL, and the server with it(\. Last stderr: .*)?$/,
    );

    // The other server is untouched.
    const echo = value(
      await t.api.callTool({ server: 'bystander', tool: 'echo', argumentsJson: '{"message":"still here"}' }),
    );
    expect(echo.isError).toBe(false);
    expect(JSON.stringify(echo.content)).toContain('still here');

    // The crashed one comes back by itself, in a new sandbox.
    const back = await waitForSnapshot(t, 'victim', (s) => s.status === 'connected', 'victim back', from);
    expect(back.sandbox?.state).toBe('on');
    expect(back.pid).not.toBe(pid);
  });
});
