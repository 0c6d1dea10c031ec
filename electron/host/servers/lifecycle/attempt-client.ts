import type { Client, PriorDiscovery, ResponseCacheStore } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../../../../shared/model/config.js';
import type { LogLevel } from '../../../../shared/model/logs.js';
import type { HostError } from '../../errors.js';
import type { ConnectionOptions } from '../connection-options.js';
import { createServerClient } from '../server-client.js';
import { ServerCatalog } from '../server-catalog.js';
import type { ConnectAttempt, SessionEnding } from '../transport/server-transport.js';
import { requestPolicyOf } from './request-policy.js';
import type { ServerOutput } from './server-output.js';

/** What one connect attempt needs from its connection. */
export interface AttemptParams {
  server: string;
  options: ConnectionOptions;
  output: ServerOutput;
  connectTimeoutMs: number;
  /** The entry as it is now (roots and the request policy are read when used). */
  config: () => ServerConfig;
  /** False once the attempt was called off: its events are ignored. */
  isCurrent: () => boolean;
  /** Something the server view shows changed; `catalog` when the connected server's lists did. */
  changed: (what: 'transport' | 'catalog') => void;
  log: (level: LogLevel, text: string) => void;
  describeFailure: (error: unknown, what: string, ending?: SessionEnding) => HostError;
  /** Each try's catalog, in place of the one before (which is disposed of by the connection). */
  adoptCatalog: (catalog: ServerCatalog) => void;
  responseCache: ResponseCacheStore;
  requestLogLevel: () => LogLevel | undefined;
}

/** The ConnectAttempt a transport is given: fresh clients with their catalogs, and the connection's hooks. */
export function newAttempt(params: AttemptParams): ConnectAttempt {
  let catalog: ServerCatalog | undefined;
  return {
    server: params.server,
    connectTimeoutMs: params.connectTimeoutMs,
    output: params.output,
    newClient: (negotiation, probeTimeoutMs) => {
      const made = attemptClient(params, negotiation, probeTimeoutMs);
      catalog = made.catalog;
      params.adoptCatalog(made.catalog);
      return made.client;
    },
    loadCatalog: (client) => catalog?.load(client) ?? Promise.resolve(),
    isCurrent: params.isCurrent,
    changed: () => {
      params.changed('transport');
    },
    log: params.log,
    describeFailure: params.describeFailure,
  };
}

/** A fresh SDK client (server-client.ts) and its catalog for one try of a connect attempt. */
function attemptClient(
  params: AttemptParams,
  negotiation: PriorDiscovery | 'legacy-only' | undefined,
  probeTimeoutMs: number,
): { client: Client; catalog: ServerCatalog } {
  const { server, options } = params;
  const catalog = new ServerCatalog(server, {
    timeoutMs: requestPolicyOf(params.config()).timeoutMs,
    onWarning: (line) => {
      params.output.note(line.replace(/^\[host\] /, ''), 'warning');
    },
    // Before the snapshot goes out, so no one sees a changed tool unmarked.
    onTools: (definitions) => {
      if (params.isCurrent()) options.onToolDefinitions?.(server, definitions);
    },
  });
  catalog.onChange(() => {
    if (params.isCurrent()) params.changed('catalog');
  });
  const client = createServerClient({
    server,
    appVersion: options.appVersion,
    negotiation,
    probeTimeoutMs,
    config: params.config,
    listChanged: catalog.listChangedHandlers(),
    features: options.clientFeatures,
    onResourceUpdated: (uri) => {
      if (params.isCurrent()) options.onResourceUpdated?.(server, uri);
    },
    onLog: (entry) => options.onLog?.(entry),
    responseCache: params.responseCache,
    requestLogLevel: params.requestLogLevel,
  });
  return { client, catalog };
}
