import { afterEach, beforeEach } from 'vitest';
import { NodePlatform } from '../../electron/host/node-platform.js';
import { startFakeAnthropic } from '../fixtures/fake-anthropic.js';
import type { FakeAnthropic } from '../fixtures/fake-anthropic.js';
import { createChatHost } from './chat.js';
import { createTestHost, value, waitForSnapshot } from './host.js';
import type { TestHost } from './host.js';
import type { ServerSnapshot } from '../../shared/model/server.js';
import { tempDir } from './servers.js';

/** Test hosts (and the fake Anthropic API) a test file makes, closed after each test; waits on and logs of their servers. */

export interface TrackedHosts {
  /** Disposes `t` after this test; returns it. */
  track<T extends { dispose(): Promise<void> }>(t: T): T;
  /** createTestHost, disposed after this test. */
  create(...args: Parameters<typeof createTestHost>): Promise<TestHost>;
  /** A host on a plain NodePlatform over `dataDir` (a fresh temp folder unless given), disposed after this test. */
  onDataDir(servers: Parameters<typeof createTestHost>[0], dataDir?: string): Promise<TestHost>;
  /** createChatHost (chat on the fake API, servers started), disposed after this test. */
  chat(...args: Parameters<typeof createChatHost>): Promise<TestHost>;
}

/** Call at the top of a test file: every host made through the result is disposed after each test. */
export function hostsDisposedAfterEach(): TrackedHosts {
  const hosts: { dispose(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((t) => t.dispose()));
  });
  const track = <T extends { dispose(): Promise<void> }>(t: T): T => {
    hosts.push(t);
    return t;
  };
  return {
    track,
    create: async (...args) => track(await createTestHost(...args)),
    onDataDir: async (servers, dataDir = tempDir()) =>
      track(await createTestHost(servers, { platform: new NodePlatform(dataDir) })),
    chat: async (...args) => track(await createChatHost(...args)),
  };
}

/**
 * Call at the top of a test file, before hostsDisposedAfterEach (after-hooks run
 * last-registered first, so the hosts are disposed before the API closes): a fake
 * Anthropic API started before each test and closed after it.
 */
export function fakeAnthropicEachTest(): { readonly fake: FakeAnthropic; restart(): Promise<void> } {
  let fake: FakeAnthropic | undefined;
  beforeEach(async () => {
    fake = await startFakeAnthropic();
  });
  afterEach(async () => {
    await fake?.close();
  });
  return {
    get fake(): FakeAnthropic {
      if (!fake) throw new Error('the fake Anthropic API starts before each test');
      return fake;
    },
    /** A new fake in place of one the test closed itself. */
    restart: async () => {
      fake = await startFakeAnthropic();
    },
  };
}

/** A server's log lines as `<source> <text>`. */
export async function serverLogLines(t: TestHost, name: string): Promise<string[]> {
  return value(await t.api.getServerLogs({ name })).entries.map((e) => `${e.source} ${e.text}`);
}

/** The first snapshot of `name` (events from index `from` on) in which it has connected or failed. */
export function waitForSettled(t: TestHost, name: string, what?: string, from = 0): Promise<ServerSnapshot> {
  return waitForSnapshot(t, name, (s) => s.status === 'connected' || s.status === 'failed', what, from);
}
