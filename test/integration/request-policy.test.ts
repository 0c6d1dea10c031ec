import { describe, expect, it } from 'vitest';
import type { ToolCallProgress } from '../../shared/model/server.js';
import { start, value, waitForEvent } from '../helpers/host.js';
import type { TestHost } from '../helpers/host.js';
import { hostsDisposedAfterEach } from '../helpers/tracked-hosts.js';
import { rawServer } from '../helpers/servers.js';

const hosts = hostsDisposedAfterEach();
let t: TestHost | undefined;

const progressEvents = (host: TestHost, callId: string): ToolCallProgress[] =>
  host.events
    .filter((e) => e.event === 'toolCallProgress')
    .map((e) => e.payload as ToolCallProgress)
    .filter((p) => p.callId === callId);

const stderrOf = async (host: TestHost, name: string): Promise<string[]> =>
  value(await host.api.listServers({})).find((s) => s.name === name)?.stderrTail ?? [];

/** Waits until the server has logged a line matching `pattern` on stderr. */
async function stderrLine(host: TestHost, name: string, pattern: RegExp): Promise<string> {
  for (;;) {
    const line = (await stderrOf(host, name)).find((l) => pattern.test(l));
    if (line !== undefined) return line;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('request policy', () => {
  it('progress notifications reset the timeout: a call that reports progress outlives it', async () => {
    // Ten steps 250 ms apart: 2.5 s in all, five times the 500 ms timeout, each gap half of it.
    t = await hosts.create({ raw: { ...rawServer(), timeout: 500 } });
    await start(t.api, 'raw');
    const result = await t.api.callTool({
      server: 'raw',
      tool: 'progress',
      argumentsJson: '{"steps": 10, "intervalMs": 250}',
      callId: 'call-progress-1',
    });
    expect(value(result).content).toEqual([{ type: 'text', text: 'done after 10 steps' }]);
    const updates = progressEvents(t, 'call-progress-1');
    // The last notification is written just before the result and may arrive after the call settled.
    expect(updates.length).toBeGreaterThanOrEqual(9);
    expect(updates.map((u) => u.progress)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].slice(0, updates.length));
    expect(updates[0]).toMatchObject({ server: 'raw', tool: 'progress', total: 10, message: 'step 1' });
  });

  it('a silent call fails at the configured timeout with a message naming it', async () => {
    t = await hosts.create({ raw: { ...rawServer(), timeout: 300 } });
    await start(t.api, 'raw');
    const result = await t.api.callTool({ server: 'raw', tool: 'hang', argumentsJson: '{}' });
    expect(result).toMatchObject({ ok: false, error: { code: 'timeout' } });
    if (!result.ok)
      expect(result.error.message).toBe(
        'Server "raw" did not answer tools/call hang within 300 ms (timeout)',
      );
    // The server is told to stop working on it.
    expect(await stderrLine(t, 'raw', /^cancelled request/)).toMatch(/cancelled request \d+/);
  });

  it('a call that reports progress forever stops at maxTotalTimeout and the server is told', async () => {
    t = await hosts.create({ raw: { ...rawServer(), timeout: 1000, maxTotalTimeout: 1500 } });
    await start(t.api, 'raw');
    const result = await t.api.callTool({
      server: 'raw',
      tool: 'progress',
      argumentsJson: '{"steps": 0, "intervalMs": 100}',
      callId: 'call-forever-1',
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'timeout' } });
    if (!result.ok) expect(result.error.message).toMatch(/within the maximum of 1\.5 s \(maxTotalTimeout\)/);
    expect(progressEvents(t, 'call-forever-1').length).toBeGreaterThan(0);
    expect(await stderrLine(t, 'raw', /^cancelled request/)).toMatch(/cancelled request \d+/);
  });

  it('cancelToolCall ends a running call, sends notifications/cancelled, and is false once it is over', async () => {
    t = await hosts.create({ raw: rawServer() });
    await start(t.api, 'raw');
    const call = t.api.callTool({
      server: 'raw',
      tool: 'progress',
      argumentsJson: '{"steps": 0, "intervalMs": 100}',
      callId: 'call-cancel-1',
    });
    await waitForEvent(t, (e, p) =>
      e === 'toolCallProgress' && (p as ToolCallProgress).callId === 'call-cancel-1' ? true : undefined,
    );
    expect(value(await t.api.cancelToolCall({ callId: 'call-cancel-1' }))).toBe(true);
    const result = await call;
    expect(result).toEqual({
      ok: false,
      error: { code: 'cancelled', message: 'tools/call progress was cancelled' },
    });
    expect(await stderrLine(t, 'raw', /^cancelled request/)).toMatch(/cancelled request \d+/);
    expect(value(await t.api.cancelToolCall({ callId: 'call-cancel-1' }))).toBe(false);
    // The connection is still good.
    const echo = await t.api.callTool({
      server: 'raw',
      tool: 'echo',
      argumentsJson: '{"message":"still here"}',
    });
    expect(value(echo).content).toEqual([{ type: 'text', text: 'still here' }]);
  });

  it('refuses a second running call with the same id', async () => {
    t = await hosts.create({ raw: rawServer() });
    await start(t.api, 'raw');
    const first = t.api.callTool({ server: 'raw', tool: 'hang', argumentsJson: '{}', callId: 'same-id-1' });
    const second = await t.api.callTool({
      server: 'raw',
      tool: 'hang',
      argumentsJson: '{}',
      callId: 'same-id-1',
    });
    expect(second).toMatchObject({ ok: false, error: { code: 'conflict' } });
    value(await t.api.cancelToolCall({ callId: 'same-id-1' }));
    expect(await first).toMatchObject({ ok: false, error: { code: 'cancelled' } });
  });
});
