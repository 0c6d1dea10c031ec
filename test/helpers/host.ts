import { createHost } from '../../electron/host/host.js';
import { NodePlatform } from '../../electron/host/node-platform.js';
import { createLocalClient } from '../../electron/host/ipc/local-client.js';
import type { Host } from '../../electron/host/host-types.js';
import type { LaunchRequest } from '../../electron/host/platform.js';
import type { HostRequests } from '../../shared/ipc/host-api.js';
import type { Result } from '../../shared/ipc/result.js';
import type { StdioServerConfig } from '../../shared/model/config.js';
import type { ServerSnapshot } from '../../shared/model/server.js';
import { tempDir, writeConfig } from './servers.js';

export interface TestHost {
  host: Host;
  api: HostRequests;
  configPath: string;
  events: { event: string; payload: unknown }[];
  dispose(): Promise<void>;
}

/** A real host core on a temp config, reached through the validated local client. */
export async function createTestHost(
  servers: Record<string, StdioServerConfig> = {},
  options: { launchPolicy?: (request: LaunchRequest) => Promise<boolean> } = {},
): Promise<TestHost> {
  const configPath = writeConfig(servers);
  const host = createHost({
    platform: new NodePlatform(tempDir(), options.launchPolicy),
    shell: 'headless',
    appVersion: '0.0.0-test',
    configPath,
  });
  const events: TestHost['events'] = [];
  host.onEvent((event, payload) => events.push({ event, payload }));
  await host.loadConfig();
  return { host, api: createLocalClient(host.handlers), configPath, events, dispose: () => host.dispose() };
}

export function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`expected ok, got ${result.error.code}: ${result.error.message}`);
  return result.value;
}

export async function start(api: HostRequests, name: string): Promise<ServerSnapshot> {
  return value(await api.startServer({ name }));
}
