import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HeadlessServer } from '../../electron/headless/server.js';
import { serveHeadless } from '../helpers/headless-server.js';
import { createTestHost, start } from '../helpers/host.js';
import type { TestHost } from '../helpers/host.js';
import { rawServer } from '../helpers/servers.js';
import { recordSocket, startFlood, stopFlood } from '../helpers/socket-recorder.js';

/** A flooding server: the host keeps its bounded buffers; the page gets a trickle. */

let t: TestHost;
let server: HeadlessServer;

beforeAll(async () => {
  t = await createTestHost({ raw: rawServer() });
  server = await serveHeadless(t.host);
  await start(t.api, 'raw');
});
afterAll(async () => {
  await server.close();
  await t.dispose();
});

describe('floods reach the renderer coalesced and throttled', () => {
  it('a 16 MB stderr flood and an endless progress stream stay within a small number of frames', async () => {
    const page = await recordSocket(server.port, server.token);
    const started = performance.now();
    startFlood(page);
    await expect.poll(() => page.answers.has(2), { timeout: 60_000 }).toBe(true);
    // Let the progress stream run a while longer, then stop it.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    stopFlood(page);
    await expect.poll(() => page.answers.has(1), { timeout: 10_000 }).toBe(true);
    const seconds = (performance.now() - started) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 1200)); // the last log batch
    page.close();

    const logBytes = page.bytes.get('serverLog') ?? 0;
    const progressFrames = page.frames.get('toolCallProgress') ?? 0;
    // The host kept the newest lines in its bounded log, and says how many the page did not get.
    const kept = await t.api.getServerLogs({ name: 'raw' });
    expect(kept.ok && kept.value.entries.length).toBeGreaterThan(100);
    // About 32 KB a second of log text, not 16 MB; ten progress frames a second, not a thousand.
    expect(logBytes).toBeLessThan(64 * 1024 * (seconds + 2));
    expect(progressFrames).toBeGreaterThan(0);
    expect(progressFrames).toBeLessThanOrEqual(10 * seconds + 2);
  });
});
