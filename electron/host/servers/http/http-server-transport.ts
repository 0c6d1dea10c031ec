import type { Client, FetchLike } from '@modelcontextprotocol/client';
import type { HttpServerConfig, TransportEntry } from '../../../../shared/model/config.js';
import type { ServerStatus } from '../../../../shared/model/server.js';
import { HostError } from '../../errors.js';
import { ServerAuthSession } from './auth/server-auth.js';
import type { ConnectionOptions } from '../connection-options.js';
import { withSecrets } from '../config/entry-secrets.js';
import type {
  ConnectAttempt,
  ServerTransport,
  SignInControl,
  TransportEvents,
  TransportFacts,
  TransportSession,
} from '../transport/server-transport.js';
import { connectHttp, resolveUrl } from './http-transport.js';
import type { HttpSession } from './http-transport.js';

/**
 * A remote server: Streamable HTTP with the HTTP+SSE fallback
 * (http-transport.ts), and its OAuth session (auth/), which outlives any one
 * connection: a sign-in may come before the first connect, and tokens are
 * kept across reconnects.
 */
export class HttpServerTransport implements ServerTransport {
  readonly kind = 'http';
  readonly signIn: SignInControl | undefined;
  private auth: ServerAuthSession | undefined;
  /** The open session, while connected. */
  private http: HttpSession | undefined;
  private client: Client | undefined;

  constructor(
    private readonly name: string,
    private config: HttpServerConfig,
    private readonly options: ConnectionOptions,
    private readonly events: TransportEvents,
  ) {
    this.signIn = options.oauth
      ? { prepared: () => this.preparedAuth(), current: () => this.auth }
      : undefined;
  }

  reconfigure(entry: TransportEntry): boolean {
    if (entry.kind !== 'http') return false;
    this.config = entry.config;
    return true;
  }

  facts(status: ServerStatus): TransportFacts {
    return status === 'connected' && this.http ? { httpTransport: this.http.kind } : {};
  }

  signInFailure(error: unknown): HostError | undefined {
    return this.auth?.signInFailure(error);
  }

  /** Streamable HTTP (or its HTTP+SSE fallback), then the catalog. */
  async connect(attempt: ConnectAttempt): Promise<TransportSession> {
    const config = this.config;
    const env = (await this.options.environment()).all;
    const { client, session } = await connectHttp({
      serverName: this.name,
      config: await withSecrets(this.name, config, this.options.secrets),
      env,
      newClient: ({ legacyOnly }) => {
        this.client = attempt.newClient(
          legacyOnly ? 'legacy-only' : undefined,
          Math.floor(attempt.connectTimeoutMs / 2),
        );
        return this.client;
      },
      connectTimeoutMs: attempt.connectTimeoutMs,
      reconnection: this.options.httpReconnection,
      ...(this.options.oauth
        ? {
            prepareAuth: (resource: string, base: FetchLike) =>
              this.authSession().prepare(config, resource, env, base),
          }
        : {}),
    });
    const close = async () => {
      await session.close().catch(() => undefined);
      await client.close().catch(() => undefined);
    };
    if (!attempt.isCurrent()) {
      // Stopped while connecting: this session is nobody's any more.
      await close();
      throw new Error('stopped while starting');
    }
    this.http = session;
    try {
      await attempt.loadCatalog(client);
    } catch (error) {
      this.http = undefined;
      await close();
      throw attempt.describeFailure(error, 'listing');
    }
    return {
      client,
      onEnded: undefined,
      ending: () => undefined,
      close: async () => {
        if (this.http === session) this.http = undefined;
        await session.close();
        await client.close().catch(() => undefined);
      },
    };
  }

  async abandon(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    await client?.close().catch(() => undefined);
  }

  /** The auth session, prepared for the current configuration (a sign-in may come before any connect). */
  private async preparedAuth(): Promise<ServerAuthSession> {
    const config = this.config;
    const session = this.authSession();
    const env = (await this.options.environment()).all;
    const url = resolveUrl({ config, env, serverName: this.name });
    await session.prepare(config, url.href, env, globalThis.fetch);
    return session;
  }

  private authSession(): ServerAuthSession {
    const services = this.options.oauth;
    if (!services) throw new HostError('internal', 'OAuth is not available');
    this.auth ??= new ServerAuthSession(
      this.name,
      services,
      this.options.appVersion,
      () => {
        this.events.changed();
      },
      (level, text) => {
        this.events.log(level, text);
      },
    );
    return this.auth;
  }
}
