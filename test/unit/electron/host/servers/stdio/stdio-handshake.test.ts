import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import type { Client, PriorDiscovery } from '@modelcontextprotocol/client';
import { HostError } from '../../../../../../electron/host/errors.js';
import { ServerOutput } from '../../../../../../electron/host/servers/lifecycle/server-output.js';
import {
  connectStdio,
  probePatienceMs,
} from '../../../../../../electron/host/servers/stdio/stdio-handshake.js';
import { createServerClient } from '../../../../../../electron/host/servers/server-client.js';
import type { StdioProcessTransport } from '../../../../../../electron/host/servers/stdio/stdio-transport.js';
import type { StdioServerConfig } from '../../../../../../shared/model/config.js';
import { fixtureEntry, fixtureServer } from '../../../../../helpers/servers.js';

const require = createRequire(import.meta.url);
const memoryEntry = require.resolve('@modelcontextprotocol/server-memory/dist/index.js');
const modernEntry = fixtureEntry('modern-server.mjs');
const CONNECT_TIMEOUT_MS = 120_000;

interface Outcome {
  era: 'modern' | 'legacy' | undefined;
  settledBy: 'probe' | 'prior';
  retries: string[];
  processes: number;
  stderr: string[];
  ms: number;
}

let open: { client: Client; transport: StdioProcessTransport }[] = [];
afterEach(async () => {
  await Promise.all(
    open.map(async ({ client, transport }) => {
      await client.close().catch(() => undefined);
      await transport.close();
    }),
  );
  open = [];
});

/** Starts a server through the host's stdio handshake exactly as a ServerConnection does (same client, same patience). */
async function handshake(config: StdioServerConfig, prior?: PriorDiscovery): Promise<Outcome> {
  const retries: string[] = [];
  const stderr: string[] = [];
  let processes = 0;
  const output = new ServerOutput((entry) => {
    if (entry.source === 'stderr') stderr.push(entry.text);
  });
  const started = Date.now();
  const result = await connectStdio({
    name: 'probe-test',
    launch: {
      command: config.command,
      args: config.args ?? [],
      env: { ...process.env } as Record<string, string>,
    },
    graceMs: 500,
    connectTimeoutMs: CONNECT_TIMEOUT_MS,
    prior,
    isCurrent: () => true,
    output,
    newClient: () =>
      createServerClient({
        server: 'probe-test',
        appVersion: '0.0.0-test',
        negotiation: prior,
        probeTimeoutMs: probePatienceMs(CONNECT_TIMEOUT_MS),
        config: () => config,
        listChanged: {},
        onResourceUpdated: () => undefined,
        onLog: () => undefined,
      }),
    afterConnect: async (client) => {
      await client.listTools();
    },
    adopt: () => {
      processes += 1;
    },
    onProcessExit: () => undefined,
    onRetry: (reason) => retries.push(reason),
    describeFailure: (error) => new HostError('connection_failed', String(error)),
    describeExit: (exit) => `exited with code ${String(exit.code)} before completing the MCP handshake`,
  });
  open.push(result);
  return {
    era: result.client.getProtocolEra(),
    settledBy: result.settledBy,
    retries,
    processes,
    stderr,
    ms: Date.now() - started,
  };
}

const choker = (...flags: string[]) => fixtureServer('probe-choker.mjs', '--log-methods', ...flags);

describe('the version probe on stdio: each branch of the decision', () => {
  it('answered with a discover result: the 2026-07-28 era, one process, no restart', async () => {
    const outcome = await handshake(fixtureServer('modern-server.mjs'));
    expect(outcome).toMatchObject({ era: 'modern', settledBy: 'probe', retries: [], processes: 1 });
  });

  it('answered with an error: the 2025 handshake on the same process, no restart', async () => {
    const outcome = await handshake({ command: process.execPath, args: [memoryEntry] });
    expect(outcome).toMatchObject({ era: 'legacy', retries: [], processes: 1 });
  });

  it('no answer, server stays alive: initialize on the same process after the patience, not half the limit', async () => {
    const outcome = await handshake(choker('--stays-alive'));
    expect(outcome).toMatchObject({ era: 'legacy', retries: [], processes: 1 });
    expect(outcome.stderr).toEqual([
      'got server/discover',
      'got initialize',
      'got notifications/initialized',
      'got tools/list',
    ]);
    expect(outcome.ms).toBeLessThan(10_000);
  });

  it('no answer, server exits on the initialize that follows: started again straight into the 2025 handshake', async () => {
    const outcome = await handshake(choker());
    expect(outcome).toMatchObject({ era: 'legacy', settledBy: 'probe', processes: 2 });
    expect(outcome.retries).toEqual([
      expect.stringMatching(
        /left the version probe \(server\/discover\) unanswered and exited on the initialize that followed; starting it again straight into the 2025 initialize handshake/,
      ),
    ]);
    // The second process never sees the probe.
    expect(outcome.stderr.slice(outcome.stderr.lastIndexOf('got server/discover') + 1)).not.toContain(
      'got server/discover',
    );
    expect(outcome.ms).toBeLessThan(10_000);
  });

  it('a slow starter that answers the probe late is still modern (started again with its answer)', async () => {
    // Reads nothing for longer than the patience, then answers server/discover (already in its pipe, ahead of initialize).
    const outcome = await handshake(
      fixtureServer('slow-start.mjs', String(probePatienceMs(CONNECT_TIMEOUT_MS) + 1500), modernEntry),
    );
    expect(outcome.era).toBe('modern');
    expect(outcome.retries).toEqual([
      expect.stringMatching(/answered the version probe after the host had gone on/),
    ]);
  }, 30_000);

  it('a remembered legacy verdict sends no probe at all', async () => {
    const outcome = await handshake(choker(), { kind: 'legacy' });
    expect(outcome).toMatchObject({ era: 'legacy', settledBy: 'prior', retries: [], processes: 1 });
    expect(outcome.stderr).not.toContain('got server/discover');
  });
});

describe('the era does not follow the machine load', () => {
  const servers: Record<string, StdioServerConfig> = {
    choker: choker(),
    silent: choker('--stays-alive'),
    legacy: { command: process.execPath, args: [memoryEntry] },
    modern: fixtureServer('modern-server.mjs'),
    slowModern: fixtureServer(
      'slow-start.mjs',
      String(probePatienceMs(CONNECT_TIMEOUT_MS) + 1500),
      modernEntry,
    ),
  };
  const eras = async () =>
    Object.fromEntries(
      await Promise.all(
        Object.entries(servers).map(async ([name, config]) => [name, (await handshake(config)).era] as const),
      ),
    );

  it('settles every server on the same era idle and with busy loops in workers', async () => {
    const idle = await eras();
    expect(idle).toEqual({
      choker: 'legacy',
      silent: 'legacy',
      legacy: 'legacy',
      modern: 'modern',
      slowModern: 'modern',
    });
    // Two busy loops in this process (threads the host shares its CPU with) and two beside it.
    const workers = [0, 1].map(() => new Worker('for (;;) {}', { eval: true }));
    const { spawn } = await import('node:child_process');
    const burners = [0, 1].map(() => spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
    try {
      expect(await eras()).toEqual(idle);
    } finally {
      await Promise.all(workers.map((w) => w.terminate()));
      for (const b of burners) b.kill('SIGKILL');
    }
  }, 90_000);
});
