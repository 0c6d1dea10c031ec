import { auth, computeScopeUnion, discoverOAuthServerInfo } from '@modelcontextprotocol/client';
import type { FetchLike, OAuthClientProvider } from '@modelcontextprotocol/client';
import type { HttpServerConfig, OAuthConfig } from '../../../shared/model/config.js';
import type { ServerAuth } from '../../../shared/model/server.js';
import { HostError } from '../errors.js';
import { ellipsize } from '../text.js';
import { describeAuthFailure } from './auth-errors.js';
import { HostOAuthProvider, RefreshDeferredError, newState } from './host-oauth-provider.js';
import type { RevocationPlan, RevocationSkip } from './host-oauth-provider.js';
import { OAuthFetchRefusedError, hostOf, isLocalHost, originOf, shownUrl } from './oauth-network.js';
import type { Resolver } from './oauth-network.js';
import { isMachineGrant, machineProvider } from './machine-providers.js';
import type { MachineGrant } from './machine-providers.js';
import { startLoopbackRedirect } from './loopback-redirect.js';
import { IssuerBoundMachineProvider } from './machine-binding.js';
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
  /** How host names are resolved for the private-address rule (tests); default the system's. */
  resolve?: Resolver | undefined;
}

/** A line for the server's log. */
export type AuthLog = (level: 'info' | 'warning', text: string) => void;

/** How sign-out ended (closed: each has its sentence in `describeSignOut`). */
export type SignOutOutcome =
  | { kind: 'nothing-held' }
  | { kind: 'revoked' }
  | { kind: 'not-confirmed'; status: number }
  | { kind: 'unreachable' }
  | { kind: 'skipped'; reason: RevocationSkip; issuer?: string | undefined };

/** The one line sign-out leaves in the server's log and view. */
export function describeSignOut(outcome: SignOutOutcome): string {
  switch (outcome.kind) {
    case 'nothing-held':
    case 'revoked':
      return 'Signed out';
    case 'not-confirmed':
      return `Signed out; the authorization server did not confirm the revocation (HTTP ${String(outcome.status)})`;
    case 'unreachable':
      return 'Signed out; the authorization server could not be reached to revoke the sign-in';
    case 'skipped':
      return `Signed out; the tokens were forgotten here but not revoked: ${skipText(outcome.reason, outcome.issuer !== undefined ? hostOf(outcome.issuer) : 'the issuer')}`;
  }
}

function skipText(reason: RevocationSkip, host: string): string {
  switch (reason) {
    case 'unknown-issuer':
      return 'it is not recorded which authorization server issued them';
    case 'insecure-issuer':
      return `their issuer ${host} is neither https nor on this machine`;
    case 'issuer-unreachable':
      return `their issuer ${host} could not be reached`;
    case 'issuer-metadata-mismatch':
      return `the metadata of ${host} names another issuer`;
    case 'no-revocation-endpoint':
      return `their issuer ${host} offers no revocation`;
    case 'insecure-endpoint':
      return `the revocation endpoint of ${host} is neither https nor on this machine`;
    case 'no-client':
      return `this app has no client at ${host}`;
  }
}

/** Where a flow is: nobody asked (a connect, a request), a sign-in the person started, or a sign-out. */
type Phase = 'background' | 'sign-in' | 'sign-out';

export const DEFAULT_SIGN_IN_TIMEOUT_MS = 5 * 60_000;
/** How the server view names a machine grant's client. */
const MACHINE_CLIENT = {
  client_credentials: 'client-credentials',
  jwt_bearer: 'workload-identity',
  enterprise: 'enterprise',
} as const satisfies Record<MachineGrant, NonNullable<ServerAuth['client']>>;
/** Longest authorization link the server view shows (ServerAuthSchema). */
const MAX_SHOWN_URL = 8192;
const MAX_SHOWN_ISSUER = 2048;

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
  private machine: { grant: MachineGrant; provider: IssuerBoundMachineProvider } | undefined;
  private config: HttpServerConfig | undefined;
  private resource: string | undefined;
  /** The server's URL (expanded) of the last prepare, whatever the grant. */
  private target: string | undefined;
  private env: Readonly<Record<string, string | undefined>> = {};
  /** The prepared fetch (oauth-fetch.ts over the transport's), also used by the sign-in's own requests. */
  private fetch: FetchLike = globalThis.fetch;
  private challenge: Challenge = {};
  private unreachable: string | undefined;
  private waiting:
    { until: number; cancel: (reason: HostError) => void; authorizationUrl?: string | undefined } | undefined;
  private required: string | undefined;
  private phase: Phase = 'background';
  /** Origins the running sign-in reached. */
  private readonly signInOrigins = new Set<string>();
  /** The last URL the running sign-in was not allowed to fetch (the SDK may swallow the error). */
  private refusal: OAuthFetchRefusedError | undefined;
  /** Whether the MCP server itself is on a private, loopback or link-local address, per resource. */
  private resourceLocal: { resource: string; local: Promise<boolean> } | undefined;

  constructor(
    private readonly serverName: string,
    private readonly services: OAuthServices,
    private readonly appVersion: string,
    private readonly onChange: () => void,
    private readonly log: AuthLog = () => undefined,
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
    this.target = resource;
    this.env = env;
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
      admit: (url, method) => this.admit(url, method),
      onRefreshOutcome: (outcome) => {
        this.provider?.refreshOutcome(outcome);
      },
    });
    this.fetch = fetch;
    if (oauth.enabled === false) {
      this.provider = undefined;
      return { authProvider: undefined, fetch };
    }
    const grant = oauth.grant;
    if (isMachineGrant(grant)) {
      this.provider = undefined;
      this.machine ??= {
        grant,
        provider: await IssuerBoundMachineProvider.create(
          (issuer) =>
            machineProvider(this.serverName, grant, issuer !== undefined ? { ...oauth, issuer } : oauth, env),
          {
            serverName: this.serverName,
            resource,
            oauth,
            store: this.services.store,
            onChange: this.onChange,
          },
        ),
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
    const machineIssuer = this.machine?.provider.boundIssuer();
    const machineShown =
      machineIssuer !== undefined ? { clientIssuer: ellipsize(machineIssuer, MAX_SHOWN_ISSUER) } : {};
    if (this.required !== undefined)
      return { ...shown, ...machineShown, state: 'required', message: this.required };
    if (signedIn) return { ...shown, state: 'signed-in' };
    if (this.machine)
      return { state: 'signed-in', client: MACHINE_CLIENT[this.machine.grant], ...machineShown };
    return undefined;
  }

  /**
   * An error of a connect or request, as the one line to show when it is a
   * sign-in matter (the server then shows "Sign-in required"); undefined
   * otherwise.
   */
  signInFailure(error: unknown): HostError | undefined {
    const refused = causeOf(error, OAuthFetchRefusedError);
    if (refused?.refusal.kind === 'before-sign-in') {
      // A background flow stopped at the MCP server's own origin: the person has to start the sign-in.
      const url = refused.url;
      const where = /\/\.well-known\/(oauth-authorization-server|openid-configuration)/.test(url)
        ? ` at ${hostOf(url)}`
        : '';
      // Why the held sign-in ended (a refused refresh), when that is what brought the flow here.
      const reason = this.provider?.signInReason ?? `Sign in${where} to use this server`;
      return new HostError('sign_in_required', reason);
    }
    if (refused) return new HostError('sign_in_required', `Server "${this.serverName}": ${refused.message}`);
    // A refresh that failed in passing keeps the sign-in: an ordinary failure, retried.
    if (causeOf(error, RefreshDeferredError)) return undefined;
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

  /**
   * The gate in front of every request of this server's fetch: the MCP
   * server's own requests pass; each OAuth request is written to the log
   * (origin and path only) and refused where the flow may not go.
   */
  private async admit(url: string, method: string): Promise<void> {
    const resource = this.target;
    const origin = originOf(url);
    const resourceOrigin = resource !== undefined ? originOf(resource) : undefined;
    if (origin === undefined || resourceOrigin === undefined) return;
    if (!this.isOAuthRequest(url, origin, resourceOrigin)) return;
    const refuse = (refusal: OAuthFetchRefusedError['refusal']): never => {
      const error = new OAuthFetchRefusedError(refusal, url);
      if (this.phase !== 'background') this.refusal ??= error;
      throw error;
    };
    const host = new URL(url).host;
    if (this.phase === 'background' && this.machine === undefined && origin !== resourceOrigin) {
      // Before the person presses Sign in: the MCP server's own origin only, or the sign-in already made.
      if (!(this.provider?.backgroundOrigins() ?? []).includes(origin))
        refuse({ kind: 'before-sign-in', host });
    }
    if (origin !== resourceOrigin && resource !== undefined) {
      const resolve = this.services.resolve;
      const local = await isLocalHost(new URL(url).hostname, resolve).catch(() => undefined);
      if (local === undefined) refuse({ kind: 'unresolvable', host });
      if (local === true && !(await this.isResourceLocal(resource)))
        refuse({ kind: 'private-address', host });
    }
    if (this.phase === 'sign-in') this.signInOrigins.add(origin);
    this.log('info', `OAuth: ${method.toUpperCase()} ${shownUrl(url)}`);
  }

  /** An OAuth request, not the MCP server's own traffic: another origin, a well-known document, or a known endpoint. */
  private isOAuthRequest(url: string, origin: string, resourceOrigin: string): boolean {
    if (origin !== resourceOrigin || this.phase === 'sign-out') return true;
    const { pathname } = new URL(url);
    if (pathname.startsWith('/.well-known/')) return true;
    const plain = `${origin}${pathname}`;
    return (this.provider?.knownEndpoints() ?? []).some((endpoint) => shownUrl(endpoint) === plain);
  }

  /** The URL the running sign-in was refused last (read through a call: it is set from inside the fetch). */
  private lastRefusal(): OAuthFetchRefusedError | undefined {
    return this.refusal;
  }

  private isResourceLocal(resource: string): Promise<boolean> {
    if (this.resourceLocal?.resource !== resource) {
      const local = isLocalHost(new URL(resource).hostname, this.services.resolve).catch(() => false);
      this.resourceLocal = { resource, local };
    }
    return this.resourceLocal.local;
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
    this.phase = 'sign-in';
    this.signInOrigins.clear();
    this.refusal = undefined;
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
      await this.discoverForSignIn(provider, resource, options.resourceMetadataUrl);
      const first = await auth(provider, { ...options, forceReauthorization: true });
      if (first !== 'AUTHORIZED') {
        const params = await loopback.callback;
        const code = params.get('code') ?? '';
        const iss = params.get('iss') ?? undefined;
        await auth(provider, { ...options, authorizationCode: code, ...(iss !== undefined ? { iss } : {}) });
      }
      await provider.trustOrigins([...this.signInOrigins]);
      this.required = undefined;
    } catch (error) {
      const refused = this.lastRefusal();
      const failure =
        (refused !== undefined
          ? new HostError('sign_in_required', `Server "${this.serverName}": ${refused.message}`)
          : undefined) ??
        this.signInFailure(error) ??
        new HostError('sign_in_required', String(error));
      this.required = failure.message;
      throw failure;
    } finally {
      this.phase = 'background';
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
   * The discovery of a sign-in the person started, checked before anything
   * is registered or opened: the authorization server must offer PKCE with
   * S256 (an absent `code_challenge_methods_supported` counts as no PKCE, as
   * the MCP specification says; a server with no metadata at all gets the
   * 2025-03-26 default endpoints on its own origin, with an S256 challenge),
   * and must be the issuer the entry is pinned
   * or bound to. The checked discovery is what the SDK then uses.
   */
  private async discoverForSignIn(
    provider: HostOAuthProvider,
    resource: string,
    resourceMetadataUrl: URL | undefined,
  ): Promise<void> {
    await provider.invalidateCredentials('discovery');
    const info = await discoverOAuthServerInfo(resource, { fetchFn: this.fetch, resourceMetadataUrl });
    const refused = this.lastRefusal();
    if (refused) throw refused;
    const metadata = info.authorizationServerMetadata;
    const where = `Server "${this.serverName}"`;
    if (metadata === undefined) {
      // No metadata at all: the 2025-03-26 default endpoints (/authorize, /token, /register) on the
      // server's own origin, where the SDK always sends an S256 challenge. Nothing to pin a client to
      // but that origin.
      if (originOf(info.authorizationServerUrl) !== originOf(resource)) {
        throw new HostError(
          'sign_in_required',
          `${where}: no authorization server metadata at ${hostOf(info.authorizationServerUrl)}; sign-in refused`,
        );
      }
      provider.acceptIssuer(info.authorizationServerUrl);
      return;
    }
    const methods = metadata.code_challenge_methods_supported;
    if (!Array.isArray(methods) || !methods.includes('S256')) {
      throw new HostError(
        'sign_in_required',
        `${where}: the authorization server ${hostOf(metadata.issuer)} does not advertise PKCE with S256 (code_challenge_methods_supported); sign-in refused`,
      );
    }
    provider.acceptIssuer(metadata.issuer);
    await provider.saveDiscoveryState({
      authorizationServerUrl: info.authorizationServerUrl,
      ...(resourceMetadataUrl !== undefined ? { resourceMetadataUrl: resourceMetadataUrl.href } : {}),
      resourceMetadata: info.resourceMetadata,
      authorizationServerMetadata: metadata,
    });
  }

  /**
   * Revokes the refresh token (or the access token) at the issuer that
   * issued it (RFC 7009; see `HostOAuthProvider.revocationPlan`), then
   * forgets everything. The tokens are forgotten either way; the returned
   * line says whether they were revoked, and if not, why.
   */
  async signOut(): Promise<string> {
    const provider = this.provider;
    let outcome: SignOutOutcome = { kind: 'nothing-held' };
    this.phase = 'sign-out';
    try {
      const plan: RevocationPlan = provider
        ? await provider.revocationPlan(this.fetch)
        : { kind: 'nothing-held' };
      if (plan.kind === 'skip') outcome = { kind: 'skipped', reason: plan.reason, issuer: plan.issuer };
      else if (plan.kind === 'revoke') outcome = await this.revoke(plan);
    } finally {
      this.phase = 'background';
    }
    await provider?.forget();
    this.machine = undefined;
    this.required = undefined;
    return describeSignOut(outcome);
  }

  private async revoke(plan: Extract<RevocationPlan, { kind: 'revoke' }>): Promise<SignOutOutcome> {
    const body = new URLSearchParams({ token: plan.token, token_type_hint: plan.hint });
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    if (plan.clientSecret !== undefined) {
      headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(plan.clientId)}:${encodeURIComponent(plan.clientSecret)}`).toString('base64')}`;
    } else {
      body.set('client_id', plan.clientId);
    }
    try {
      const response = await this.fetch(plan.endpoint, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(10_000),
      });
      await response.body?.cancel().catch(() => undefined);
      return response.ok ? { kind: 'revoked' } : { kind: 'not-confirmed', status: response.status };
    } catch {
      return { kind: 'unreachable' };
    }
  }
}

/** The first error of type `type` in `error`'s cause chain. */
function causeOf<T extends Error>(error: unknown, type: abstract new (...args: never[]) => T): T | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    if (current instanceof type) return current;
    current = current.cause;
  }
  return undefined;
}
