import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { start, value, waitForSnapshot } from '../helpers/host.js';
import type { TestHost } from '../helpers/host.js';
import { hostsDisposedAfterEach } from '../helpers/tracked-hosts.js';
import { rawServer, tempDir } from '../helpers/servers.js';

const hosts = hostsDisposedAfterEach();
let t: TestHost | undefined;

/** Short backoff so a test sees several restarts; the rule (double, cap, give up at 5) is the real one. */
const fastRestarts = { restart: { baseDelayMs: 50, maxDelayMs: 200 }, pingIntervalMs: 0 };

describe('resilience', () => {
  it('a crash mid-call fails the call with the last stderr lines, then restarts with a new process', async () => {
    t = await hosts.create({ raw: rawServer() }, { tuning: fastRestarts });
    const first = await start(t.api, 'raw');
    const from = t.events.length;
    const result = await t.api.callTool({ server: 'raw', tool: 'crash', argumentsJson: '{}' });
    expect(result).toMatchObject({ ok: false, error: { code: 'server_exited' } });
    if (!result.ok) {
      expect(result.error.message).toMatch(/^Server "raw" exited with code 3 during tools\/call crash/);
      expect(result.error.message).toContain('about to crash: simulated fatal error');
    }
    const restarting = await waitForSnapshot(t, 'raw', (s) => s.status === 'restarting', 'restarting', from);
    expect(restarting.crashCount).toBe(1);
    expect(restarting.restartAt).toBeGreaterThan(0);
    expect(restarting.error).toMatch(/exited with code 3 unexpectedly/);
    const back = await waitForSnapshot(t, 'raw', (s) => s.status === 'connected', 'reconnected', from);
    expect(back.pid).not.toBe(first.pid);
    expect(back.crashCount).toBe(1);
    const echo = await t.api.callTool({ server: 'raw', tool: 'echo', argumentsJson: '{"message":"back"}' });
    expect(value(echo).content).toEqual([{ type: 'text', text: 'back' }]);
  });

  it('gives up after 5 crashes in the window, says so, and a manual restart starts over', async () => {
    const marker = join(tempDir(), 'crash-on-start');
    t = await hosts.create({ raw: rawServer('--crash-on-start-if', marker) }, { tuning: fastRestarts });
    await start(t.api, 'raw');
    writeFileSync(marker, '');
    const from = t.events.length;
    await t.api.callTool({ server: 'raw', tool: 'crash', argumentsJson: '{}' });
    const stopped = await waitForSnapshot(t, 'raw', (s) => s.status === 'failed', 'gave up', from);
    expect(stopped.crashCount).toBe(5);
    expect(stopped.error).toMatch(/Crashed 5 times within 5 min, so it was not restarted again/);
    expect(stopped.error).toMatch(/refusing to start: crash marker present/);
    const delays = t.events
      .slice(from)
      .filter((e) => e.event === 'serverChanged')
      .map((e) => e.payload as { status: string; crashCount?: number })
      .filter((s) => s.status === 'restarting')
      .map((s) => s.crashCount);
    expect(delays).toEqual([1, 2, 3, 4]);

    rmSync(marker);
    const restarted = value(await t.api.restartServer({ name: 'raw' }));
    expect(restarted.status).toBe('connected');
    expect(restarted.crashCount).toBeUndefined();
  });

  it('with autoRestart false a crash leaves the server failed', async () => {
    t = await hosts.create({ raw: { ...rawServer(), autoRestart: false } }, { tuning: fastRestarts });
    await start(t.api, 'raw');
    const from = t.events.length;
    await t.api.callTool({ server: 'raw', tool: 'crash', argumentsJson: '{}' });
    const failed = await waitForSnapshot(t, 'raw', (s) => s.status === 'failed', 'failed', from);
    expect(failed.error).toMatch(/exited with code 3 unexpectedly/);
    expect(t.events.slice(from).some((e) => (e.payload as { status?: string }).status === 'restarting')).toBe(
      false,
    );
  });

  it('an idle server that stops answering ping is marked and restarted with the reason', async () => {
    t = await hosts.create(
      { raw: rawServer('--no-ping') },
      { tuning: { restart: { baseDelayMs: 60_000 }, pingIntervalMs: 100, pingTimeoutMs: 200 } },
    );
    const { pid } = await start(t.api, 'raw');
    const restarting = await waitForSnapshot(t, 'raw', (s) => s.status === 'restarting', 'restarting');
    expect(restarting.error).toBe('Server "raw" did not answer a ping within 0.2 s');
    expect(restarting.stderrTail).toContain('[host] did not answer a ping within 0.2 s');
    // The unhealthy process is gone.
    await waitForExit(pid ?? 0);
  });

  it('holds a server flooding stderr and stdout in bounded buffers and stays usable', async () => {
    const gc = exposeGc();
    t = await hosts.create({ raw: rawServer() }, { tuning: fastRestarts });
    await start(t.api, 'raw');
    gc();
    const before = process.memoryUsage().heapUsed;
    const result = await t.api.callTool({
      server: 'raw',
      tool: 'flood',
      argumentsJson: '{"stderrMb": 64, "stdoutMb": 32}',
    });
    expect(value(result).content).toEqual([{ type: 'text', text: 'flooded' }]);
    gc();
    const growth = process.memoryUsage().heapUsed - before;
    const snapshot = value(await t.api.listServers({}))[0];
    expect(snapshot?.status).toBe('connected');
    expect(snapshot?.stderrTail.length).toBeLessThanOrEqual(50);
    const retained = snapshot?.stderrTail.reduce((n, line) => n + line.length, 0) ?? 0;
    expect(retained).toBeLessThanOrEqual(50 * 4096);
    // The stdout garbage was skipped and counted, not kept whole.
    expect(snapshot?.strayStdout?.count).toBeGreaterThan(0);
    expect(snapshot?.strayStdout?.first[0]?.startsWith('garbage, not JSON')).toBe(true);
    expect(snapshot?.strayStdout?.first[0]?.length).toBeLessThanOrEqual(200);
    // 96 MiB went through; what stays is a few hundred KiB. Generous bound for GC noise.
    expect(growth).toBeLessThan(24 * 1024 * 1024);
    const echo = await t.api.callTool({ server: 'raw', tool: 'echo', argumentsJson: '{"message":"ok"}' });
    expect(value(echo).content).toEqual([{ type: 'text', text: 'ok' }]);
  });
});

function exposeGc(): () => void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  return () => {
    gc();
    gc();
  };
}

async function waitForExit(pid: number): Promise<void> {
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
