import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHost } from '../../electron/host/host.js';
import type { Host } from '../../electron/host/host-types.js';
import { createLocalClient } from '../../electron/host/ipc/local-client.js';
import { NodePlatform } from '../../electron/host/node-platform.js';
import type { HostRequests } from '../../shared/ipc/host-api.js';
import type { ServerConfig } from '../../shared/model/config.js';

/** A bench's host core and the validated API the UI would use. */
export interface BenchHost {
  host: Host;
  api: HostRequests;
}

/**
 * A real host core (headless shell) on a fresh data folder (or `dataDir`),
 * with a configuration file holding `servers`. Health pings are off, so none
 * lands inside a measurement. The caller loads the configuration.
 */
export function benchHost(servers: Record<string, ServerConfig>, dataDir?: string): BenchHost {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'mcp-host-bench-'));
  const configPath = join(dir, 'mcp-servers.json');
  writeFileSync(configPath, JSON.stringify({ mcpServers: servers }));
  const host = createHost({
    platform: new NodePlatform(dir),
    shell: 'headless',
    appVersion: 'bench',
    configPath,
    tuning: { pingIntervalMs: 0 },
  });
  return { host, api: createLocalClient(host.handlers) };
}
