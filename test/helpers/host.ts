import { createHost } from '../../electron/host/host.js';
import { NodePlatform } from '../../electron/host/node-platform.js';
import { createLocalClient } from '../../electron/host/ipc/local-client.js';
import type { Host, HostOptions } from '../../electron/host/host-types.js';
import type { LaunchRequest, Platform } from '../../electron/host/platform.js';
import type { ConnectionTuning } from '../../electron/host/servers/server-connection.js';
import type { HostEnvironment } from '../../electron/host/servers/stdio/login-env.js';
import type { HostRequests } from '../../shared/ipc/host-api.js';
import type { Result } from '../../shared/ipc/result.js';
import type { ServerConfig } from '../../shared/model/config.js';
import type { ServerSnapshot } from '../../shared/model/server.js';
import { tempDir, writeConfig } from './servers.js';

export interface TestHost {
  host: Host;
  api: HostRequests;
  configPath: string;
  /** The data folder of the NodePlatform made for the test (unused when a platform was passed). */
  dataDir: string;
  events: { event: string; payload: unknown }[];
  dispose(): Promise<void>;
}

/** A real host core on a temp config, reached through the validated local client. */
export async function createTestHost(
  servers: Record<string, ServerConfig> = {},
  options: {
    launchPolicy?: (request: LaunchRequest) => Promise<boolean>;
    tuning?: ConnectionTuning;
    environment?: () => Promise<HostEnvironment>;
    /** Instead of a NodePlatform on a temp folder (launchPolicy is then ignored). */
    platform?: Platform;
  } & Pick<HostOptions, 'samplingModel' | 'samplingPerMinute' | 'interactive' | 'registry'> = {},
): Promise<TestHost> {
  const configPath = writeConfig(servers);
  const dataDir = tempDir();
  const host = createHost({
    // No system keychain in tests: a developer's own keychain is not a test fixture.
    platform: options.platform ?? new NodePlatform(dataDir, options.launchPolicy, { keychain: null }),
    shell: 'headless',
    appVersion: '0.0.0-test',
    configPath,
    tuning: options.tuning,
    environment: options.environment,
    samplingModel: options.samplingModel,
    samplingPerMinute: options.samplingPerMinute,
    interactive: options.interactive,
    registry: options.registry,
  });
  const events: TestHost['events'] = [];
  host.onEvent((event, payload) => events.push({ event, payload }));
  await host.loadConfig();
  return {
    host,
    api: createLocalClient(host.handlers),
    configPath,
    dataDir,
    events,
    dispose: () => host.dispose(),
  };
}

export function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`expected ok, got ${result.error.code}: ${result.error.message}`);
  return result.value;
}

export async function start(api: HostRequests, name: string): Promise<ServerSnapshot> {
  return value(await api.startServer({ name }));
}

/** Resolves with the first event matching `match` (already recorded or still to come). */
export function waitForEvent<T>(
  t: TestHost,
  match: (event: string, payload: unknown) => T | undefined,
  what = 'event',
  from = 0,
  timeoutMs = 20_000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    for (const e of t.events.slice(from)) {
      const found = match(e.event, e.payload);
      if (found !== undefined) {
        resolve(found);
        return;
      }
    }
    const timer = setTimeout(() => {
      off();
      reject(new Error(`timed out waiting for ${what}`));
    }, timeoutMs);
    const off = t.host.onEvent((event, payload) => {
      const found = match(event, payload);
      if (found === undefined) return;
      clearTimeout(timer);
      off();
      resolve(found);
    });
  });
}

/** Waits for a serverChanged snapshot of `name` that satisfies `match` (events from index `from` on). */
export function waitForSnapshot(
  t: TestHost,
  name: string,
  match: (snapshot: ServerSnapshot) => boolean,
  what = `a snapshot of ${name}`,
  from = 0,
): Promise<ServerSnapshot> {
  return waitForEvent(
    t,
    (event, payload) => {
      if (event !== 'serverChanged') return undefined;
      const snapshot = payload as ServerSnapshot;
      return snapshot.name === name && match(snapshot) ? snapshot : undefined;
    },
    what,
    from,
  );
}
