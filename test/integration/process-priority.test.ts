import { getPriority } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOWER_PRIORITY } from '../../electron/host/servers/stdio/process-priority.js';
import { createTestHost, start, value, type TestHost } from '../helpers/host.js';
import { fixtureServer } from '../helpers/servers.js';

// Real processes: the fixture reports the nice value it runs at and that of a child it starts.
const server = fixtureServer('priority-server.mjs');
const hostPriority = getPriority();
const lowered = Math.max(hostPriority, LOWER_PRIORITY);

let t: TestHost;
beforeAll(async () => {
  t = await createTestHost({
    sandboxed: server,
    unconfined: { ...server, sandbox: { enabled: false } },
    normal: { ...server, sandbox: { enabled: false }, priority: 'normal' },
  });
});
afterAll(async () => {
  await t.dispose();
});

async function reported(name: string): Promise<string> {
  const result = value(await t.api.callTool({ server: name, tool: 'priority', argumentsJson: '{}' }));
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

describe('local servers run below normal CPU priority', () => {
  it('lowers an unconfined server and what it starts, and the server view says so', async () => {
    const snapshot = await start(t.api, 'unconfined');
    expect(snapshot.status).toBe('connected');
    expect(snapshot.priority).toBe('lower');
    expect(await reported('unconfined')).toBe(`self=${String(lowered)} child=${String(lowered)}`);
  });

  it('lowers the server inside the sandbox, not only the bubblewrap around it', async () => {
    const snapshot = await start(t.api, 'sandboxed');
    expect(snapshot.sandbox?.state).toBe('on');
    expect(snapshot.priority).toBe('lower');
    expect(await reported('sandboxed')).toBe(`self=${String(lowered)} child=${String(lowered)}`);
  });

  it('leaves an entry with "priority": "normal" at the host’s own priority', async () => {
    const snapshot = await start(t.api, 'normal');
    expect(snapshot.priority).toBe('normal');
    expect(await reported('normal')).toBe(`self=${String(hostPriority)} child=${String(hostPriority)}`);
  });

  it('shows no priority for a stopped server', async () => {
    value(await t.api.stopServer({ name: 'normal' }));
    const list = value(await t.api.listServers({}));
    expect(list.find((s) => s.name === 'normal')?.priority).toBeUndefined();
  });
});
