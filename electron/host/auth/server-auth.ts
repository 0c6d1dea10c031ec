import { auth, computeScopeUnion } from '@modelcontextprotocol/client';
import type { FetchLike, OAuthClientProvider } from '@modelcontextprotocol/client';
import type { HttpServerConfig, OAuthConfig } from '../../../shared/model/config.js';
import type { ServerAuth } from '../../../shared/model/server.js';
import { HostError } from '../errors.js';
import { describeAuthFailure } from './auth-errors.js';
import { HostOAuthProvider, newState } from './host-oauth-provider.js';
import { isMachineGrant, machineProvider } from './machine-providers.js';
import type { MachineGrant } from './machine-providers.js';
import { startLoopbackRedirect } from './loopback-redirect.js';
import type { Challenge } from './oauth-fetch.js';
import { oauthFetch } from './oauth-fetch.js';
import type { OAuthStore } from './oauth-store.js';

/** What the host gives every server's sign-in (one of each per host). */
export interface OAuthServices {
  store: OAuthStore;
  /** Opens an authorization page: the system browser (Platform.openExternal); the conformance client follows it itself. */
  openBrowser(url: string): Promise<void>;
  /** The app's Client ID Metadata Document URL (a setting); undefined: none. */
  clientMetadataUrl?: string | undefined;
  /** How long a sign-in waits for the browser to come back. Default 5 min. */
  signInTimeoutMs?: number | undefined;
}

export const DEFAULT_SIGN_IN_TIMEOUT_MS = 5 * 60_000;
/** How the server view names a machine grant's client. */
const MACHINE_CLIENT = {
  client_credentials: 'client-credentials',
  jwt_bearer: 'workload-identity',
  enterprise: 'enterprise',
} as const satisfies Record<MachineGrant, NonNullable<ServerAuth['client']>>;
/** Longest authorization link the server view shows (ServerAuthSchema). */
const MAX_SHOWN_URL = 8192;

/** What a connect attempt to a remote server needs for OAuth. */
export interface PreparedAuth {
  authProvider: OAuthClientProvider | undefined;
  fetch: FetchLike;
}

/**
 * The OAuth side of one remote server: builds the SDK's auth provider for
 * each connect, says what the server view shows, runs the browser sign-in
 * the person starts (loopback redirect, browser, code exchange), and signs
 * out (revocation, then forgetting). Owned by its ServerConnection.
 */
export class ServerAuthSession {
  private provider: HostOAuthProvider | undefined;
  private machine: { grant: MachineGrant; provider: OAuthClientProvider } | undefined;
  private config: HttpServerConfig | undefined;
  private resource: string | undefined;
  private env: Readonly<Record<string, string | undefined>> = {};
  private baseFetch: FetchLike = globalThis.fetch;
  /** The prepared fetch (oauth-fetch.ts over `baseFetch`), also used by the sign-in's own requests. */
  private fetch: FetchLike = globalThis.fetch;
  private challenge: Challenge = {};
  private unreachable: string | undefined;
  private waiting:
    { until: number; cancel: (reason: HostError) => void; authorizationUrl?: string | undefined } | undefined;
  private required: string | undefined;

  constructor(
    private readonly serverName: string,
    private readonly services: OAuthServices,
    private readonly appVersion: string,
    private readonly onChange: () => void,
  ) {}

  /**
   * The auth provider and fetch for one connect attempt. Nothing happens on
   * the network here; OAuth starts when the server answers 401.
   */
  async prepare(
    config: HttpServerConfig,
    resource: string,
    env: Readonly<Record<string, string | undefined>>,
    base: FetchLike,
  ): Promise<PreparedAuth> {
    this.config = config;
    this.env = env;
    this.baseFetch = base;
    this.unreachable = undefined;
    const oauth: OAuthConfig = config.oauth ?? {};
    const fetch = oauthFetch(base, {
      onChallenge: (challenge) => {
        this.challenge = challenge;
        this.provider?.challenged(challenge);
      },
      onTokenRefused: () => this.provider?.tokenRefused() ?? Promise.resolve(),
      onUnreachable: (host) => {
        this.unreachable = host;
      },
    });
    this.fetch = fetch;
    if (oauth.enabled === false) {
      this.provider = undefined;
      return { authProvider: undefined, fetch };
    }
    if (isMachineGrant(oauth.grant)) {
      this.provider = undefined;
      this.machine ??= {
        grant: oauth.grant,
        provider: machineProvider(this.serverName, oauth.grant, oauth, env),
      };
      return { authProvider: this.machine.provider, fetch };
    }
    if (this.provider === undefined || this.resource !== resource) {
      this.resource = resource;
      this.provider = await HostOAuthProvider.create({
        serverName: this.serverName,
        resource,
        config: oauth,
        store: this.services.store,
        env,
        clientMetadataUrl: this.services.clientMetadataUrl,
        appVersion: this.appVersion,
        fetch,
        onChange: this.onChange,
      });
    }
    return { authProvider: this.provider, fetch };
  }

  /** The server view's auth state; undefined for a server that never asked for OAuth. */
  describe(): ServerAuth | undefined {
    const info = this.provider?.describe();
    const { signedIn, ...shown } = info ?? { signedIn: false };
    if (this.waiting) {
      // A link longer than the view accepts (a hostile authorization endpoint) is not offered.
      const link =
        (this.waiting.authorizationUrl?.length ?? 0) <= MAX_SHOWN_URL
          ? this.waiting.authorizationUrl
          : undefined;
      return {
        ...shown,
        state: 'waiting',
        waitingUntil: this.waiting.until,
        ...(link !== undefined ? { authorizationUrl: link } : {}),
      };
    }
    if (this.required !== undefined) return { ...shown, state: 'required', message: this.required };
    if (signedIn) return { ...shown, state: 'signed-in' };
    if (this.machine) return { state: 'signed-in', client: MACHINE_CLIENT[this.machine.grant] };
    return undefined;
  }

  /**
   * An error of a connect or request, as the one line to show when it is a
   * sign-in matter (the server then shows "Sign-in required"); undefined
   * otherwise.
   */
  signInFailure(error: unknown): HostError | undefined {
    return (
      describeAuthFailure(this.serverName, error, this.unreachable, this.machine !== undefined) ??
      this.unreachableAuthorizationServer()
    );
  }

  /**
   * A connect that failed because a machine other than the server itself
   * could not be reached: the authorization server (discovery or token
   * requests go there), so the server waits for a sign-in that can work.
   */
  private unreachableAuthorizationServer(): HostError | undefined {
    const host = this.unreachable;
    if (host === undefined || this.resource === undefined || new URL(this.resource).host === host)
      return undefined;
    return new HostError(
      'sign_in_required',
      `Server "${this.serverName}": cannot reach the authorization server ${host}`,
    );
  }

  /** The server needs a sign-in; `message` says why. */
  markRequired(message: string): void {
    this.required = message;
  }

  clearRequired(): void {
    this.required = undefined;
  }

  get isWaiting(): boolean {
    return this.waiting !== undefined;
  }

  /**
   * The browser sign-in: a loopback listener, the authorization page in the
   * browser, then the code exchanged for tokens. `opened` is called once the
   * browser was asked to open. Resolves when tokens are held; rejects with
   * one line (HostError) otherwise.
   */
  async signIn(opened: () => void): Promise<void> {
    if (isMachineGrant(this.config?.oauth?.grant)) {
      // No person and no browser: signing in again is asking for a token again, at the next connect.
      this.machine = undefined;
      this.required = undefined;
      opened();
      return;
    }
    const provider = this.provider;
    const resource = this.resource;
    if (!provider || resource === undefined) {
      throw new HostError('sign_in_required', `Server "${this.serverName}" does not use a browser sign-in`);
    }
    if (this.waiting) throw new HostError('conflict', `A sign-in to "${this.serverName}" is already waiting`);
    const timeoutMs = this.services.signInTimeoutMs ?? DEFAULT_SIGN_IN_TIMEOUT_MS;
    const state = newState();
    const loopback = await startLoopbackRedirect({
      state,
      timeoutMs,
      preferredPort: provider.registeredPort(),
      serverName: this.serverName,
    });
    this.waiting = {
      until: Date.now() + timeoutMs,
      cancel: (reason) => {
        loopback.cancel(reason);
      },
    };
    this.unreachable = undefined;
    const fetchFn = this.fetch;
    // A step-up asks for what the server challenged plus what was granted before (SEP-2350).
    const wanted = this.config?.oauth?.scopes?.join(' ') ?? this.challenge.scope;
    const scope =
      this.challenge.error === 'insufficient_scope'
        ? computeScopeUnion(provider.grantedScope(), wanted)
        : wanted;
    const options = {
      serverUrl: resource,
      fetchFn,
      ...(this.challenge.resourceMetadataUrl !== undefined
        ? { resourceMetadataUrl: this.challenge.resourceMetadataUrl }
        : {}),
      ...(scope !== undefined && scope !== '' ? { scope } : {}),
    };
    this.onChange();
    try {
      await provider.beginInteractive({
        redirectUrl: loopback.redirectUrl,
        port: loopback.port,
        state,
        open: async (url) => {
          if (this.waiting) this.waiting.authorizationUrl = url;
          try {
            await this.services.openBrowser(url);
          } catch {
            // No browser could be started (a headless machine): the page offers the link instead.
          }
          this.onChange();
          opened();
        },
      });
      const first = await auth(provider, { ...options, forceReauthorization: true });
      if (first !== 'AUTHORIZED') {
        const params = await loopback.callback;
        const code = params.get('code') ?? '';
        const iss = params.get('iss') ?? undefined;
        await auth(provider, { ...options, authorizationCode: code, ...(iss !== undefined ? { iss } : {}) });
      }
      this.required = undefined;
    } catch (error) {
      const failure = this.signInFailure(error) ?? new HostError('sign_in_required', String(error));
      this.required = failure.message;
      throw failure;
    } finally {
      provider.endInteractive();
      loopback.cancel(new HostError('cancelled', 'Sign-in ended'));
      this.waiting = undefined;
      this.onChange();
    }
  }

  /** Stops waiting for the browser. */
  cancel(): void {
    this.waiting?.cancel(new HostError('cancelled', `Sign-in to "${this.serverName}" was cancelled`));
  }

  /**
   * Revokes the refresh token (or the access token) where the authorization
   * server offers revocation (RFC 7009), then forgets everything. A failed
   * revocation does not keep the tokens: they are forgotten either way, and
   * the returned line says what could not be done.
   */
  async signOut(): Promise<string | undefined> {
    const provider = this.provider;
    let note: string | undefined;
    if (
      provider?.hasTokens() === true &&
      provider.revocationTarget() === undefined &&
      this.resource !== undefined
    ) {
      // The cached discovery may have been dropped (a refused token): look the endpoints up again.
      await provider.rediscover(this.resource, this.baseFetch).catch(() => undefined);
    }
    const target = provider?.revocationTarget();

    if (target) {
      try {
        const body = new URLSearchParams({ token: target.token, token_type_hint: target.hint });
        const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
        if (target.clientSecret !== undefined) {
          headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(target.clientId)}:${encodeURIComponent(target.clientSecret)}`).toString('base64')}`;
        } else {
          body.set('client_id', target.clientId);
        }
        const response = await this.baseFetch(target.endpoint, {
          method: 'POST',
          headers,
          body,
          signal: AbortSignal.timeout(10_000),
        });
        if (!response.ok)
          note = `the authorization server did not confirm the revocation (HTTP ${String(response.status)})`;
      } catch {
        note = 'the authorization server could not be reached to revoke the sign-in';
      }
    }
    await provider?.forget();
    this.machine = undefined;
    this.required = undefined;
    return note;
  }
}
