import {
  SSEClientTransport,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import type {
  Client,
  FetchLike,
  StreamableHTTPReconnectionOptions,
  Transport,
} from '@modelcontextprotocol/client';
import type { HttpServerConfig } from '../../../../shared/model/config.js';
import type { HttpTransportKind } from '../../../../shared/model/server.js';
import { HostError, describeError } from '../../errors.js';
import { batchTolerantFetch } from '../transport/batch-tolerant-transport.js';
import { connectRetryFetch } from './connect-retry-fetch.js';
import { expandEnvReferences, expandEnvReferencesIn } from '../config/env-references.js';
import { isAuthFailure } from './auth/auth-errors.js';
import type { PreparedAuth } from './auth/server-auth.js';

/**
 * Remote servers: Streamable HTTP, falling back to the legacy HTTP+SSE
 * transport.
 *
 * What the SDK's `StreamableHTTPClientTransport` already does, and we rely on
 * (each is proven on the wire by test/integration/http-transport.test.ts):
 * it keeps the `Mcp-Session-Id` the server issued at initialize and sends it
 * on every later request; it sends `MCP-Protocol-Version` once a version is
 * negotiated (the Client calls `setProtocolVersion`); it honours an SSE
 * `retry:` field and resumes a broken stream with a GET carrying
 * `Last-Event-ID`. What it leaves to the host, and this file adds: ending the
 * session with DELETE when we close (the SDK's `close()` only aborts), the
 * fallback to HTTP+SSE, custom headers with `${env:NAME}` expansion, our
 * reconnection policy, and batch tolerance (batch-tolerant-transport.ts).
 */

/** Statuses with which a server that only speaks HTTP+SSE refuses the initialize POST (spec: backwards compatibility). */
const FALLBACK_STATUSES: ReadonlySet<number> = new Set([400, 404, 405]);

/**
 * Reconnection of a broken SSE stream: more patient than the SDK's default
 * (2 retries) because a desktop app lives through Wi-Fi changes and sleep; a
 * server's `retry:` field overrides the delay.
 */
export const DEFAULT_HTTP_RECONNECTION: StreamableHTTPReconnectionOptions = {
  initialReconnectionDelay: 1000,
  maxReconnectionDelay: 30_000,
  reconnectionDelayGrowFactor: 1.5,
  maxRetries: 5,
};

/** Longest we wait for the session-ending DELETE before closing anyway. */
const TERMINATE_TIMEOUT_MS = 2000;

/** An open connection to a remote server. */
export interface HttpSession {
  readonly kind: HttpTransportKind;
  readonly transport: Transport;
  /** Ends the session: DELETE with the session id (Streamable HTTP), then closes the streams. */
  close(): Promise<void>;
}

export interface HttpConnectOptions {
  serverName: string;
  config: HttpServerConfig;
  /** Where `${env:NAME}` in the URL and header values is looked up. */
  env: Readonly<Record<string, string | undefined>>;
  /** A fresh client; `legacyOnly` for HTTP+SSE, which has no 2026-07-28 era. */
  newClient: (options: { legacyOnly: boolean }) => Client;
  connectTimeoutMs: number;
  reconnection?: StreamableHTTPReconnectionOptions | undefined;
  /** The fetch under everything (tests record with it); default the global fetch. */
  fetch?: FetchLike | undefined;
  /** OAuth for this server (the URL as expanded is the protected resource); absent: static headers only. */
  prepareAuth?: ((resource: string, base: FetchLike) => Promise<PreparedAuth>) | undefined;
}

/**
 * Connects to a remote server: Streamable HTTP first, unless the entry says
 * `"type": "sse"`; if the initialize POST is answered 400, 404 or 405, the
 * legacy HTTP+SSE transport on the same URL. Resolves with the connected
 * client (handshake done) and its session; rejects with one clear HostError.
 */
export async function connectHttp(
  options: HttpConnectOptions,
): Promise<{ client: Client; session: HttpSession }> {
  const { serverName, config } = options;
  const url = resolveUrl(options);
  const headers = expandEnvReferencesIn(config.headers ?? {}, options.env, `Server "${serverName}" header`);
  const retry = connectRetryFetch(options.fetch ?? globalThis.fetch);
  const base = batchTolerantFetch(retry.fetch);
  const { authProvider, fetch } = options.prepareAuth
    ? await options.prepareAuth(url.href, base)
    : { authProvider: undefined, fetch: base };
  const requestInit: RequestInit = { headers };

  if (config.type !== 'sse') {
    const transport = new StreamableHTTPClientTransport(url, {
      requestInit,
      fetch,
      ...(authProvider ? { authProvider } : {}),
      reconnectionOptions: options.reconnection ?? DEFAULT_HTTP_RECONNECTION,
    });
    const client = options.newClient({ legacyOnly: false });
    try {
      await client.connect(transport, { timeout: options.connectTimeoutMs });
      retry.connected();
      return { client, session: streamableSession(transport) };
    } catch (error) {
      await client.close().catch(() => undefined);
      // A sign-in matter is the caller's to describe (ServerAuthSession).
      if (isAuthFailure(error)) throw error;
      if (!(error instanceof SdkHttpError && FALLBACK_STATUSES.has(error.status))) {
        throw httpFailure(serverName, config.url, error);
      }
    }
  }

  // Deprecated in the SDK, and exactly what the spec's backwards-compatibility
  // section asks a client to fall back to for servers that still use it.
  // eslint-disable-next-line @typescript-eslint/no-deprecated
  const transport = new SSEClientTransport(url, {
    requestInit,
    fetch,
    ...(authProvider ? { authProvider } : {}),
  });
  const client = options.newClient({ legacyOnly: true });
  try {
    await client.connect(transport, { timeout: options.connectTimeoutMs });
  } catch (error) {
    await client.close().catch(() => undefined);
    if (isAuthFailure(error)) throw error;
    throw httpFailure(serverName, config.url, error, config.type !== 'sse');
  }
  retry.connected();
  return {
    client,
    session: {
      kind: 'sse',
      transport,
      close: () => transport.close(),
    },
  };
}

/** The server's URL with `${env:…}` expanded. */
export function resolveUrl(options: Pick<HttpConnectOptions, 'config' | 'env' | 'serverName'>): URL {
  const text = expandEnvReferences(options.config.url, options.env, `Server "${options.serverName}" url`);
  try {
    return new URL(text);
  } catch {
    throw new HostError(
      'config_invalid',
      `Server "${options.serverName}" has an invalid URL: ${options.config.url}`,
    );
  }
}

function streamableSession(transport: StreamableHTTPClientTransport): HttpSession {
  return {
    kind: 'streamable-http',
    transport,
    async close() {
      // The spec's polite goodbye: DELETE the session (a 405 means the
      // server keeps sessions itself). Bounded, and never fatal: the
      // streams are closed regardless.
      if (transport.sessionId !== undefined) {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, TERMINATE_TIMEOUT_MS);
        });
        await Promise.race([transport.terminateSession().catch(() => undefined), timeout]);
        clearTimeout(timer);
      }
      await transport.close();
    },
  };
}

/**
 * One line for a failed remote connect. The URL shown is the configured one,
 * so a secret expanded from `${env:…}` never appears in it; headers never do.
 */
function httpFailure(serverName: string, shownUrl: string, error: unknown, afterFallback = false): HostError {
  if (error instanceof HostError) return error;
  const where = `Server "${serverName}" (${shownUrl})`;
  const tried = afterFallback ? ' (tried Streamable HTTP, then HTTP+SSE)' : '';
  if (error instanceof SdkHttpError) {
    if (error.status === 401 || error.status === 403) {
      return new HostError('denied', `${where} refused access: HTTP ${String(error.status)}${tried}`);
    }
    return new HostError('connection_failed', `${where} answered HTTP ${String(error.status)}${tried}`);
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
    return new HostError('timeout', `${where} did not complete the MCP handshake in time`);
  }
  const network = networkReason(error);
  if (network !== undefined)
    return new HostError('connection_failed', `Cannot reach ${where}: ${network}${tried}`);
  return new HostError('connection_failed', `${where}: ${describeError(error)}${tried}`);
}

/** "connection refused" and friends, from a fetch failure's cause chain. */
function networkReason(error: unknown): string | undefined {
  const reasons: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ENOTFOUND: 'host not found',
    EAI_AGAIN: 'host not found (DNS lookup failed)',
    ECONNRESET: 'the connection was reset',
    ETIMEDOUT: 'the connection timed out',
    CERT_HAS_EXPIRED: 'its TLS certificate has expired',
    DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
  };
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as NodeJS.ErrnoException).code;
    if (code !== undefined && code in reasons) return reasons[code];
    current = current.cause;
  }
  return undefined;
}
