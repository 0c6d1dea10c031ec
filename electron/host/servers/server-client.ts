import { Client } from '@modelcontextprotocol/client';
import type { ListChangedHandlers, PriorDiscovery } from '@modelcontextprotocol/client';
import { APP_MIME_TYPE, UI_EXTENSION_ID } from '../../../shared/model/tool-meta.js';
import { installElicitation } from '../client-features/elicitation-handler.js';
import type { ElicitationServices } from '../client-features/elicitation-handler.js';
import { installRootsHandler } from '../client-features/roots.js';
import { installSampling } from '../client-features/sampling-handler.js';
import type { SamplingServices } from '../client-features/sampling-handler.js';
import type { NewLogEntry } from './lifecycle/server-log.js';

export interface ServerClientOptions {
  /** The server this client talks to (its handlers name it). */
  server: string;
  appVersion: string;
  /** 'legacy-only' for HTTP+SSE, which has no 2026-07-28 era; otherwise the SDK probes (a prior verdict goes to connect()). */
  negotiation: PriorDiscovery | 'legacy-only' | undefined;
  /** How long the version probe may go unanswered before the legacy handshake. */
  probeTimeoutMs: number;
  /** The folders this server may see, read when it asks. */
  roots: () => readonly string[];
  listChanged: ListChangedHandlers;
  sampling?: SamplingServices | undefined;
  elicitation?: ElicitationServices | undefined;
  onResourceUpdated: (uri: string) => void;
  /** The server's `notifications/message`, as log entries. */
  onLog: (entry: NewLogEntry) => void;
}

/**
 * The SDK client for one connection attempt to one server: what the host
 * declares (roots; sampling and elicitation when a person can answer them;
 * the MCP Apps extension), how it negotiates the era, and the handlers of
 * what the server may send. Strict capabilities: besides the catalog's own
 * `requireCapability` checks, the SDK refuses any request whose capability
 * the server did not declare.
 */
export function createServerClient(options: ServerClientOptions): Client {
  const client = new Client(
    { name: 'mcp-host', title: 'MCP Host', version: options.appVersion },
    {
      capabilities: {
        roots: { listChanged: true },
        ...(options.sampling ? { sampling: { tools: {} } } : {}),
        ...(options.elicitation ? { elicitation: { form: {}, url: {} } } : {}),
        // MCP Apps: tools may name ui:// views, which the host shows sandboxed (electron/host/apps/).
        extensions: { [UI_EXTENSION_ID]: { mimeTypes: [APP_MIME_TYPE] } },
      },
      versionNegotiation:
        options.negotiation === 'legacy-only'
          ? { mode: 'legacy' }
          : { mode: 'auto', probe: { timeoutMs: options.probeTimeoutMs } },
      enforceStrictCapabilities: true,
      // Every page of every list; the cap only stops a cursor that never ends.
      listMaxPages: 1000,
      listChanged: options.listChanged,
    },
  );
  installRootsHandler(client, options.roots);
  if (options.sampling) {
    installSampling(
      client,
      { server: options.server, instructions: () => client.getInstructions() },
      options.sampling,
    );
  }
  if (options.elicitation) installElicitation(client, options.server, options.elicitation);
  client.setNotificationHandler('notifications/resources/updated', (notification) => {
    options.onResourceUpdated(notification.params.uri);
  });
  client.setNotificationHandler('notifications/message', (notification) => {
    const { level, logger, data } = notification.params;
    const text = typeof data === 'string' ? data : JSON.stringify(data);
    options.onLog({ source: 'server', level, ...(logger !== undefined ? { logger } : {}), text });
  });
  return client;
}
