import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { value, waitForSnapshot } from '../helpers/host.js';
import type { TestHost } from '../helpers/host.js';
import { hostsDisposedAfterEach } from '../helpers/tracked-hosts.js';
import { everything, rawServer, tempDir } from '../helpers/servers.js';

const hosts = hostsDisposedAfterEach();
let t: TestHost | undefined;

describe('many servers', () => {
  it('connects all servers in parallel; a slow or failing one never holds up the others', async () => {
    const gate = join(tempDir(), 'let-slow-start');
    t = await hosts.create({
      slow: rawServer('--wait-for', gate),
      good: rawServer(),
      everything: everything(),
      broken: { command: 'no-such-command-for-mcp-host-tests' },
    });
    // host.start() returns at once: the UI is usable while servers connect.
    await t.host.start();
    const listed = value(await t.api.listServers({}));
    expect(listed.map((s) => s.name).sort()).toEqual(['broken', 'everything', 'good', 'slow']);

    await waitForSnapshot(t, 'good', (s) => s.status === 'connected');
    await waitForSnapshot(t, 'everything', (s) => s.status === 'connected');
    await waitForSnapshot(t, 'broken', (s) => s.status === 'failed');
    // The others are done while the slow one is still waiting for its gate.
    const slow = value(await t.api.listServers({})).find((s) => s.name === 'slow');
    expect(slow?.status).toBe('connecting');
    const echo = await t.api.callTool({ server: 'good', tool: 'echo', argumentsJson: '{"message":"hi"}' });
    expect(value(echo).content).toEqual([{ type: 'text', text: 'hi' }]);

    writeFileSync(gate, '');
    await waitForSnapshot(t, 'slow', (s) => s.status === 'connected');
  });
});
