import type { Client } from '@modelcontextprotocol/client';
import { isStdioConfig } from '../../../shared/model/config.js';
import type { ServerConfig } from '../../../shared/model/config.js';
import type { ServerSnapshot } from '../../../shared/model/server.js';
import { launcherOf } from './stdio/launcher-output.js';
import type { ServerOutput } from './lifecycle/server-output.js';

/** What a connected client learnt in the handshake, as the snapshot shows it (all absent when not connected). */
export function negotiatedFacts(
  client: Client | undefined,
): Pick<ServerSnapshot, 'protocolVersion' | 'era' | 'serverInfo' | 'instructions' | 'capabilities'> {
  const caps = client?.getServerCapabilities();
  const info = client?.getServerVersion();
  const era = client?.getProtocolEra();
  const version = client?.getNegotiatedProtocolVersion();
  const instructions = client?.getInstructions();
  return {
    ...(version !== undefined ? { protocolVersion: version } : {}),
    ...(era !== undefined ? { era } : {}),
    ...(info
      ? {
          serverInfo: {
            name: info.name,
            version: info.version,
            ...(typeof info.title === 'string' ? { title: info.title } : {}),
          },
        }
      : {}),
    ...(instructions !== undefined ? { instructions } : {}),
    capabilities: {
      tools: caps?.tools !== undefined,
      resources: caps?.resources !== undefined,
      prompts: caps?.prompts !== undefined,
      logging: caps?.logging !== undefined,
    },
  };
}

/** Launcher and stray-output facts of a stdio server, for the snapshot. */
export function launchFacts(
  config: ServerConfig,
  output: ServerOutput,
): Pick<ServerSnapshot, 'launcher' | 'strayStdout' | 'bundle'> {
  if (!isStdioConfig(config)) return {};
  const launcher = launcherOf(config.command, config.args ?? []);
  const stray = output.strayStdout;
  const bundle = config.bundle ? { id: config.bundle.id, version: config.bundle.version } : undefined;
  return {
    ...(launcher ? { launcher } : {}),
    ...(stray ? { strayStdout: stray } : {}),
    ...(bundle ? { bundle } : {}),
  };
}

/** What is run or reached, for display: `npx -y "a b"` or the URL. */
export function describeTarget(config: ServerConfig): string {
  if (!isStdioConfig(config)) return config.url;
  const quote = (s: string) => (/[\s"']/.test(s) ? JSON.stringify(s) : s);
  return [config.command, ...(config.args ?? [])].map(quote).join(' ');
}
