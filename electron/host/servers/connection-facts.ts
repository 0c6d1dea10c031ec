import type { Client } from '@modelcontextprotocol/client';
import { byTransport } from '../../../shared/model/config.js';
import type { ServerConfig } from '../../../shared/model/config.js';
import type { ServerSnapshot } from '../../../shared/model/server.js';

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

/** What is run or reached, for display: `npx -y "a b"` or the URL. */
export function describeTarget(config: ServerConfig): string {
  const quote = (s: string) => (/[\s"']/.test(s) ? JSON.stringify(s) : s);
  return byTransport(config, {
    stdio: (stdio) => [stdio.command, ...(stdio.args ?? [])].map(quote).join(' '),
    http: (http) => http.url,
  });
}

/** "Connected to server-everything 2.0.0, protocol 2025-11-25", for the log. */
export function connectedLine(client: Client): string {
  const info = client.getServerVersion();
  const who = info ? `${info.name} ${info.version}` : 'server';
  return `Connected to ${who}, protocol ${client.getNegotiatedProtocolVersion() ?? 'unknown'}`;
}
