import { randomBytes } from 'node:crypto';
import {
  DpopSession,
  IssuerMismatchError,
  OAuthError,
  auth,
  createPrivateKeyJwtAuth,
  discoverAuthorizationServerMetadata,
} from '@modelcontextprotocol/client';
import type {
  AddClientAuthentication,
  FetchLike,
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { OAuthConfig } from '../../../shared/model/config.js';
import type { ServerAuth } from '../../../shared/model/server.js';
import { HostError } from '../errors.js';
import { ellipsize } from '../text.js';
import { expandEnvReferences } from '../servers/config/env-references.js';
import type { OAuthRecord, OAuthStore } from './oauth-store.js';
import { CALLBACK_PATH } from './loopback-redirect.js';
import { hostOf, isSecureOrLoopback, sameIssuer } from './oauth-network.js';
import type { RefreshOutcome } from './oauth-fetch.js';

/**
 * The host's side of the SDK's OAuth client (`OAuthClientProvider`): the SDK
 * does discovery, registration, PKCE, the token requests and the `iss`
 * checks; this class decides what the host keeps and when a person is asked.
 *
 * Two modes. In the background (a server starting, a request needing a new
 * token) it never opens a browser and never registers a client: when the SDK
 * would send the person to the authorization page, it throws
 * `SignInNeededError` instead and the server shows "Sign-in required". Only
 * a sign-in the person started (`beginInteractive`) may register, open the
 * browser and redeem a code.
 */

/** App identity shown to authorization servers. */
export const CLIENT_NAME = 'MCP Host';
export const CLIENT_URI = 'https://github.com/mcp-host/mcp-host';
/** Refresh this long before the access token expires, so no request meets an expired token. */
export const REFRESH_MARGIN_MS = 60_000;
/** Step-up authorizations (more scope) allowed per server within STEP_UP_WINDOW_MS, across requests. */
export const STEP_UP_LIMIT = 3;
export const STEP_UP_WINDOW_MS = 10 * 60_000;
/** Bounds of what the server view shows (ServerAuthSchema). */
const MAX_SHOWN_ISSUER = 2048;
const MAX_SHOWN_SCOPES = 256;
const MAX_SHOWN_SCOPE = 256;
/** Why a background flow stopped when a held token is no longer enough. */
const ASKS_AGAIN = 'The server asks for a new sign-in';
/** The redirect URI a background flow names (never used: it stops before the browser). */
const PLACEHOLDER_REDIRECT = `http://127.0.0.1${CALLBACK_PATH}`;

/** Backoff after a refresh that failed for a passing reason (network, 5xx): 2 s, 4 s, … up to 5 min. */
const REFRESH_RETRY_FIRST_MS = 2000;
const REFRESH_RETRY_MAX_MS = 5 * 60_000;
/**
 * OAuth errors of a refresh that are worth trying again; any other error
 * code (invalid_grant, invalid_client, unauthorized_client, invalid_scope…)
 * is a definitive refusal and the tokens go (RFC 6749 §5.2).
 */
const PASSING_OAUTH_ERRORS: ReadonlySet<string> = new Set(['server_error', 'temporarily_unavailable']);

/** Why sign-out forgot the tokens without revoking them (closed: each has its sentence in server-auth.ts). */
export type RevocationSkip =
  | 'unknown-issuer'
  | 'insecure-issuer'
  | 'issuer-unreachable'
  | 'issuer-metadata-mismatch'
  | 'no-revocation-endpoint'
  | 'insecure-endpoint'
  | 'no-client';

/** What sign-out does with the held tokens. */
export type RevocationPlan =
  | { kind: 'nothing-held' }
  | { kind: 'skip'; reason: RevocationSkip; issuer?: string | undefined }
  | {
      kind: 'revoke';
      issuer: string;
      endpoint: string;
      clientId: string;
      clientSecret?: string | undefined;
      token: string;
      hint: 'refresh_token' | 'access_token';
    };

/**
 * A refresh failed for a passing reason (network, 5xx): the tokens are kept
 * and the refresh is tried again later; not a sign-in matter.
 */
export class RefreshDeferredError extends HostError {
  constructor(message: string) {
    super('connection_failed', message);
    this.name = 'RefreshDeferredError';
  }
}

/** The SDK wanted the browser while nobody asked for a sign-in. */
export class SignInNeededError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SignInNeededError';
  }
}

export interface InteractiveSignIn {
  redirectUrl: string;
  port: number;
  state: string;
  /** Opens the authorization page (the system browser). */
  open: (url: string) => Promise<void>;
}

export interface HostOAuthProviderOptions {
  serverName: string;
  /** The protected resource: the server's URL as configured (expanded). */
  resource: string;
  config: OAuthConfig;
  store: OAuthStore;
  /** `${env:NAME}` values of the config, resolved. */
  env: Readonly<Record<string, string | undefined>>;
  /** The app's Client ID Metadata Document URL, when it has one. */
  clientMetadataUrl?: string | undefined;
  appVersion: string;
  fetch: FetchLike;
  /** Something shown in the server view changed. */
  onChange: () => void;
}

export class HostOAuthProvider implements OAuthClientProvider {
  private record: OAuthRecord;
  private interactive: InteractiveSignIn | undefined;
  private verifier: string | undefined;
  private refreshing: Promise<void> | undefined;
  private readonly stepUps: number[] = [];
  private dpopSession: Promise<DpopSession> | undefined;
  /** Why the last background flow stopped, for the "Sign-in required" line. */
  signInReason: string | undefined;
  /** The scope of the last `insufficient_scope` challenge (a step-up), if the last challenge was one. */
  private stepUpScope: { scope: string | undefined } | undefined;
  /** The issuer a first sign-in with the pre-registered client goes to (bound when it succeeds). */
  private pendingClientIssuer: string | undefined;
  /** Refreshes that failed for a passing reason in a row, and when the next may be tried. */
  private refreshTrouble: { failures: number; retryAt: number } | undefined;

  private constructor(
    private readonly options: HostOAuthProviderOptions,
    record: OAuthRecord,
  ) {
    this.record = record;
  }

  /** Loads what the store holds for this server and resource. */
  static async create(options: HostOAuthProviderOptions): Promise<HostOAuthProvider> {
    return new HostOAuthProvider(options, await options.store.get(options.serverName, options.resource));
  }

  // ---- What the person sees (never a token).

  /** The state for the server view; undefined when nothing was ever signed in and nothing is asked. */
  describe(): Omit<ServerAuth, 'state'> & { signedIn: boolean } {
    const tokens = this.record.tokens;
    // Everything here came from the authorization server: bounded to what the view's schema accepts.
    const issuer = tokens?.issuer ?? this.discoveredIssuer();
    const expiresAt = this.record.expiresAt;
    return {
      signedIn: tokens !== undefined,
      ...(issuer !== undefined ? { issuer: ellipsize(issuer, MAX_SHOWN_ISSUER) } : {}),
      ...(tokens?.id_token !== undefined ? accountOf(tokens.id_token) : {}),
      ...(tokens?.scope !== undefined
        ? {
            scopes: tokens.scope
              .split(' ')
              .filter(Boolean)
              .slice(0, MAX_SHOWN_SCOPES)
              .map((scope) => ellipsize(scope, MAX_SHOWN_SCOPE)),
          }
        : {}),
      ...(expiresAt !== undefined && Number.isFinite(expiresAt) ? { expiresAt } : {}),
      ...(tokens !== undefined ? { refreshable: tokens.refresh_token !== undefined } : {}),
      ...(this.record.clientKind !== undefined ? { client: this.record.clientKind } : {}),
      ...(this.boundIssuer() !== undefined
        ? { clientIssuer: ellipsize(this.boundIssuer() ?? '', MAX_SHOWN_ISSUER) }
        : {}),
    };
  }

  /**
   * The issuer the pre-registered client (client ID from the config) belongs
   * to: `oauth.issuer`, else the first one it was used with; undefined when
   * there is no such client or it was never used.
   */
  boundIssuer(): string | undefined {
    const config = this.options.config;
    if (config.clientId === undefined) return undefined;
    return (
      config.issuer ??
      this.record.clientIssuer ??
      (this.record.clientKind === 'pre-registered' ? this.record.tokens?.issuer : undefined) ??
      this.pendingClientIssuer
    );
  }

  /**
   * A sign-in the person started is about to go to `issuer`: refused (one
   * line naming both) when `oauth.issuer` names another one, or when the
   * pre-registered client belongs to another one; a pre-registered client
   * used for the first time is bound to it.
   */
  acceptIssuer(issuer: string): void {
    const pinned = this.options.config.issuer;
    if (pinned !== undefined && !sameIssuer(pinned, issuer)) {
      throw new HostError(
        'sign_in_required',
        `Server "${this.options.serverName}": its oauth.issuer is ${pinned}, but the server sends the sign-in to ${issuer}; refused`,
      );
    }
    const bound = this.boundIssuer();
    if (bound !== undefined && !sameIssuer(bound, issuer)) throw this.foreignIssuer(bound, issuer);
    // First use: this sign-in may give it the secret; it is bound for good once tokens come back.
    if (this.options.config.clientId !== undefined && bound === undefined) this.pendingClientIssuer = issuer;
  }

  /** The origins the current sign-in reached: background renewals may reach them while its tokens are held. */
  async trustOrigins(origins: readonly string[]): Promise<void> {
    await this.change((record) => {
      record.signInOrigins = [...new Set(origins)].slice(0, 32);
    });
  }

  /** Origins a background flow may reach besides the MCP server's own: those of the sign-in whose tokens are held. */
  backgroundOrigins(): readonly string[] {
    return this.record.tokens !== undefined ? (this.record.signInOrigins ?? []) : [];
  }

  /** Endpoints of the cached authorization-server metadata (OAuth requests, even on the MCP server's origin). */
  knownEndpoints(): string[] {
    const metadata = this.discoveredMetadata();
    if (!metadata) return [];
    return ['token_endpoint', 'registration_endpoint', 'revocation_endpoint', 'authorization_endpoint']
      .map((key) => metadata[key])
      .filter((value): value is string => typeof value === 'string');
  }

  /** How the last refresh-token request ended (oauth-fetch.ts): a passing failure keeps the tokens and backs off. */
  refreshOutcome(outcome: RefreshOutcome): void {
    if (outcome !== 'transient') {
      this.refreshTrouble = undefined;
      return;
    }
    const failures = (this.refreshTrouble?.failures ?? 0) + 1;
    const delay = Math.min(REFRESH_RETRY_MAX_MS, REFRESH_RETRY_FIRST_MS * 2 ** (failures - 1));
    this.refreshTrouble = { failures, retryAt: Date.now() + delay };
  }

  hasTokens(): boolean {
    return this.record.tokens !== undefined;
  }

  /** The scope the held token was granted (for a step-up's union). */
  grantedScope(): string | undefined {
    return this.record.tokens?.scope;
  }

  /** The loopback port a dynamic registration was made with (reused so it stays valid). */
  registeredPort(): number | undefined {
    return this.record.redirectPort;
  }

  // ---- Interactive sign-in, driven by ServerAuthSession.

  async beginInteractive(session: InteractiveSignIn): Promise<void> {
    this.interactive = session;
    this.verifier = undefined;
    this.signInReason = undefined;
    if (this.record.redirectPort !== undefined && this.record.redirectPort !== session.port) {
      // A dynamic registration names its redirect URI; on another port it would be refused.
      await this.change((record) => {
        record.clients = Object.fromEntries(
          Object.entries(record.clients).filter(
            ([, client]) => client.client_id === this.options.config.clientId,
          ),
        );
        delete record.redirectPort;
      });
    }
  }

  endInteractive(): void {
    this.interactive = undefined;
    this.pendingClientIssuer = undefined;
    this.verifier = undefined;
  }

  // ---- OAuthClientProvider.

  get redirectUrl(): string | undefined {
    return this.interactive?.redirectUrl ?? PLACEHOLDER_REDIRECT;
  }

  get clientMetadataUrl(): string | undefined {
    if (this.options.config.clientId !== undefined) return undefined;
    return this.options.config.clientMetadataUrl ?? this.options.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const scope = this.options.config.scopes?.join(' ');
    return {
      client_name: CLIENT_NAME,
      client_uri: CLIENT_URI,
      redirect_uris: [this.redirectUrl ?? PLACEHOLDER_REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      software_id: 'mcp-host',
      software_version: this.options.appVersion,
      ...(scope ? { scope } : {}),
    };
  }

  state(): string {
    if (!this.interactive) throw this.needSignIn();
    return this.interactive.state;
  }

  clientInformation(ctx?: OAuthClientInformationContext): StoredOAuthClientInformation | undefined {
    const preRegistered = this.preRegistered(ctx?.issuer);
    if (preRegistered) return preRegistered;
    const issuer = ctx?.issuer;
    const stored = issuer !== undefined ? this.record.clients[issuer] : undefined;
    if (stored) return stored;
    // Registering happens only in a sign-in the person started.
    if (!this.interactive) throw this.needSignIn();
    return undefined;
  }

  async saveClientInformation(
    info: StoredOAuthClientInformation,
    ctx?: OAuthClientInformationContext,
  ): Promise<void> {
    const issuer = ctx?.issuer ?? info.issuer ?? '';
    const port = this.interactive?.port;
    await this.change((record) => {
      record.clients[issuer] = { ...info, issuer };
      if (port !== undefined) record.redirectPort = port;
    });
  }

  async tokens(ctx?: OAuthClientInformationContext): Promise<StoredOAuthTokens | undefined> {
    if (ctx === undefined) await this.refreshIfExpiring();
    const tokens = this.record.tokens;
    if (!tokens) return undefined;
    // Credentials are bound to the issuer that made them.
    if (ctx?.issuer !== undefined && tokens.issuer !== undefined && tokens.issuer !== ctx.issuer)
      return undefined;
    return tokens;
  }

  async saveTokens(tokens: StoredOAuthTokens, ctx?: OAuthClientInformationContext): Promise<void> {
    const issuer = ctx?.issuer ?? tokens.issuer;
    const kind = this.clientKind(issuer);
    await this.change((record) => {
      // A refresh may omit the refresh token or the ID token: keep the ones held.
      const previous = record.tokens;
      record.tokens = {
        ...tokens,
        ...(issuer !== undefined ? { issuer } : {}),
        ...(tokens.refresh_token === undefined && previous?.refresh_token !== undefined
          ? { refresh_token: previous.refresh_token }
          : {}),
        ...(tokens.id_token === undefined && previous?.id_token !== undefined
          ? { id_token: previous.id_token }
          : {}),
      };
      if (typeof tokens.expires_in === 'number') record.expiresAt = Date.now() + tokens.expires_in * 1000;
      else delete record.expiresAt;
      record.clientKind = kind;
      if (kind === 'pre-registered' && issuer !== undefined) record.clientIssuer ??= issuer;
    });
    this.signInReason = undefined;
    this.options.onChange();
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const session = this.interactive;
    if (!session) throw this.needSignIn();
    checkAuthorizationUrl(authorizationUrl, session.redirectUrl, this.options.serverName);
    if (this.record.tokens !== undefined) this.countStepUp(authorizationUrl.searchParams.get('scope'));
    await session.open(authorizationUrl.href);
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined) {
      throw new HostError('sign_in_required', `Sign-in to "${this.options.serverName}" was not started here`);
    }
    return this.verifier;
  }

  get addClientAuthentication(): AddClientAuthentication | undefined {
    const config = this.options.config;
    if (config.tokenEndpointAuthMethod !== 'private_key_jwt' || config.clientId === undefined)
      return undefined;
    const key = this.privateKey();
    if (key === undefined) return undefined;
    return createPrivateKeyJwtAuth({
      issuer: config.clientId,
      subject: config.clientId,
      privateKey: key,
      alg: config.signingAlgorithm ?? 'ES256',
    });
  }

  dpop(): Promise<DpopSession> | undefined {
    if (this.options.config.dpop !== true) return undefined;
    // One key pair for the life of this process: tokens bound to it are refreshed with it.
    this.dpopSession ??= DpopSession.create();
    return this.dpopSession;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier') {
      this.verifier = undefined;
      return;
    }
    if ((scope === 'all' || scope === 'tokens') && this.record.tokens?.refresh_token !== undefined) {
      // The authorization server refused the refresh token (expired, revoked): say so, not "sign in".
      this.signInReason ??= 'The sign-in expired or was revoked; sign in again';
    }
    await this.change((record) => {
      if (scope === 'all' || scope === 'tokens') {
        delete record.tokens;
        delete record.expiresAt;
      }
      if (scope === 'all' || scope === 'client') {
        record.clients = {};
        delete record.redirectPort;
      }
      if (scope === 'all' || scope === 'discovery') delete record.discovery;
    });
    this.options.onChange();
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.change((record) => {
      record.discovery = state;
    });
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.record.discovery as OAuthDiscoveryState | undefined;
  }

  // ---- The host's rules around the SDK.

  /** The server's last 401/403 challenge: a step-up (`insufficient_scope`) says which permission is missing. */
  challenged(challenge: { error?: string | undefined; scope?: string | undefined }): void {
    this.stepUpScope = challenge.error === 'insufficient_scope' ? { scope: challenge.scope } : undefined;
  }

  /**
   * A request carrying our token was refused (401): the server may have
   * moved to another authorization server, so the cached discovery goes and
   * the next flow looks again (the tokens stay until the SDK decides).
   */
  async tokenRefused(): Promise<void> {
    if (this.record.discovery !== undefined) await this.invalidateCredentials('discovery');
  }

  /** Forgets everything for this server (sign-out). */
  async forget(): Promise<void> {
    await this.options.store.delete(this.options.serverName);
    this.record = { resource: this.options.resource, clients: {} };
    this.refreshTrouble = undefined;
    this.options.onChange();
  }

  /**
   * Where sign-out may revoke the held tokens: only at the revocation
   * endpoint of the issuer that issued them, read from that issuer's own
   * metadata (never from the current discovery, which the MCP server
   * chooses), https or loopback only, authenticated with the client that
   * belongs to that issuer.
   */
  async revocationPlan(fetchFn: FetchLike): Promise<RevocationPlan> {
    const tokens = this.record.tokens;
    if (!tokens) return { kind: 'nothing-held' };
    const issuer = tokens.issuer;
    if (issuer === undefined) return { kind: 'skip', reason: 'unknown-issuer' };
    if (!isSecureOrLoopback(issuer)) return { kind: 'skip', reason: 'insecure-issuer', issuer };
    let metadata: Record<string, unknown> | undefined;
    try {
      metadata = await discoverAuthorizationServerMetadata(issuer, { fetchFn });
    } catch (error) {
      const reason = error instanceof IssuerMismatchError ? 'issuer-metadata-mismatch' : 'issuer-unreachable';
      return { kind: 'skip', reason, issuer };
    }
    if (metadata === undefined) return { kind: 'skip', reason: 'issuer-unreachable', issuer };
    const endpoint = metadata.revocation_endpoint;
    if (typeof endpoint !== 'string') return { kind: 'skip', reason: 'no-revocation-endpoint', issuer };
    if (!isSecureOrLoopback(endpoint)) return { kind: 'skip', reason: 'insecure-endpoint', issuer };
    let client: { client_id: string; client_secret?: string | undefined } | undefined;
    try {
      client = this.clientInformationFor(issuer);
    } catch {
      client = undefined;
    }
    if (!client) return { kind: 'skip', reason: 'no-client', issuer };
    return {
      kind: 'revoke',
      issuer,
      endpoint,
      clientId: client.client_id,
      clientSecret: client.client_secret,
      token: tokens.refresh_token ?? tokens.access_token,
      hint: tokens.refresh_token !== undefined ? 'refresh_token' : 'access_token',
    };
  }

  /**
   * Renews the access token shortly before it expires: one refresh in
   * flight however many requests are waiting for it. A refresh the
   * authorization server refuses leaves no tokens, so the request goes out
   * without one and the server's 401 ends in "Sign-in required".
   */
  private async refreshIfExpiring(): Promise<void> {
    const { tokens, expiresAt } = this.record;
    if (!tokens?.refresh_token || expiresAt === undefined || expiresAt - Date.now() > REFRESH_MARGIN_MS)
      return;
    // Backing off after a passing failure: the held token goes out as it is (it may still be taken).
    if (this.refreshTrouble !== undefined && Date.now() < this.refreshTrouble.retryAt) return;
    this.refreshing ??= (async () => {
      const troubleBefore = this.refreshTrouble;
      try {
        const result = await auth(this, { serverUrl: this.options.resource, fetchFn: this.options.fetch });
        if (result !== 'AUTHORIZED') throw this.needSignIn();
      } catch (error) {
        // Only a definitive refusal ends the sign-in; a network blip or a 5xx keeps the tokens.
        const failedInPassing = this.refreshTrouble !== undefined && this.refreshTrouble !== troubleBefore;
        if (this.record.tokens !== undefined && (failedInPassing || isPassingFailure(error))) {
          if (!failedInPassing) this.refreshOutcome('transient');
          return;
        }
        this.signInReason = signInReasonAfterRefresh(error);
        await this.invalidateCredentials('tokens');
      } finally {
        this.refreshing = undefined;
      }
    })();
    await this.refreshing;
  }

  private countStepUp(scope: string | null): void {
    const now = Date.now();
    while (this.stepUps.length > 0 && (this.stepUps[0] ?? 0) < now - STEP_UP_WINDOW_MS) this.stepUps.shift();
    if (this.stepUps.length >= STEP_UP_LIMIT) {
      throw new HostError(
        'sign_in_required',
        `Server "${this.options.serverName}" keeps asking for more permissions${scope ? ` (${scope})` : ''} after ${String(STEP_UP_LIMIT)} sign-ins; not asking again for now`,
      );
    }
    this.stepUps.push(now);
  }

  private foreignIssuer(bound: string, issuer: string): HostError {
    return new HostError(
      'sign_in_required',
      `Server "${this.options.serverName}": its client ID belongs to ${bound}, but the server sends the sign-in to ${issuer}; refused`,
    );
  }

  private needSignIn(): SignInNeededError | RefreshDeferredError {
    if (this.record.tokens !== undefined && this.refreshTrouble !== undefined) {
      // The refresh failed for a passing reason: keep the sign-in, try again later.
      const seconds = Math.max(1, Math.ceil((this.refreshTrouble.retryAt - Date.now()) / 1000));
      return new RefreshDeferredError(
        `Server "${this.options.serverName}": could not renew the sign-in${this.tokenIssuerHost()}; trying again in ${String(seconds)} s`,
      );
    }
    const issuer = this.discoveredIssuer();
    const reason =
      this.signInReason ??
      (this.record.tokens !== undefined
        ? ASKS_AGAIN
        : `Sign in${issuer !== undefined ? ` at ${hostOf(issuer)}` : ''} to use this server`);
    this.signInReason = reason;
    // A held token refused for want of scope: say which permission is missing.
    if (reason === ASKS_AGAIN && this.stepUpScope !== undefined) {
      return new SignInNeededError(
        `The server needs more permissions${shownScope(this.stepUpScope.scope)}; sign in again to grant them`,
      );
    }
    return new SignInNeededError(reason);
  }

  private preRegistered(issuer: string | undefined): StoredOAuthClientInformation | undefined {
    const config = this.options.config;
    if (config.clientId === undefined) return undefined;
    const bound = this.boundIssuer();
    // A pre-registered client belongs to one issuer: any other one gets neither its id nor its secret.
    if (bound !== undefined && issuer !== undefined && !sameIssuer(bound, issuer))
      throw this.foreignIssuer(bound, issuer);
    // Not yet bound (nobody signed in with it): no secret leaves the host.
    const secret = bound !== undefined && issuer !== undefined ? this.clientSecret() : undefined;
    return {
      client_id: config.clientId,
      ...(secret !== undefined ? { client_secret: secret } : {}),
      ...(config.tokenEndpointAuthMethod !== undefined
        ? { token_endpoint_auth_method: config.tokenEndpointAuthMethod }
        : {}),
      ...(issuer !== undefined ? { issuer } : {}),
    };
  }

  private tokenIssuerHost(): string {
    const issuer = this.record.tokens?.issuer;
    return issuer !== undefined ? ` at ${hostOf(issuer)}` : '';
  }

  private clientInformationFor(
    issuer: string | undefined,
  ): { client_id: string; client_secret?: string } | undefined {
    const pre = this.preRegistered(issuer);
    if (pre) return pre;
    if (issuer !== undefined && this.record.clients[issuer]) return this.record.clients[issuer];
    const url = this.clientMetadataUrl;
    return url !== undefined ? { client_id: url } : undefined;
  }

  private clientKind(issuer: string | undefined): NonNullable<OAuthRecord['clientKind']> {
    if (this.options.config.clientId !== undefined) return 'pre-registered';
    const client = issuer !== undefined ? this.record.clients[issuer] : undefined;
    if (client === undefined || client.client_id === this.clientMetadataUrl) return 'metadata-document';
    return 'dynamic';
  }

  private clientSecret(): string | undefined {
    const ref = this.options.config.clientSecret;
    if (ref !== undefined)
      return expandEnvReferences(
        ref,
        this.options.env,
        `Server "${this.options.serverName}" oauth.clientSecret`,
      );
    return this.record.clientSecret;
  }

  private privateKey(): string | undefined {
    const ref = this.options.config.privateKey;
    if (ref !== undefined)
      return expandEnvReferences(
        ref,
        this.options.env,
        `Server "${this.options.serverName}" oauth.privateKey`,
      );
    return this.record.privateKey;
  }

  private discoveredMetadata(): Record<string, unknown> | undefined {
    const discovery = this.record.discovery as
      { authorizationServerMetadata?: Record<string, unknown> } | undefined;
    return discovery?.authorizationServerMetadata;
  }

  private discoveredIssuer(): string | undefined {
    const issuer = this.discoveredMetadata()?.issuer;
    return typeof issuer === 'string' ? issuer : undefined;
  }

  private async change(apply: (record: OAuthRecord) => void): Promise<void> {
    this.record = await this.options.store.update(this.options.serverName, this.options.resource, apply);
  }
}

/** A fresh `state` for one authorization request (RFC 6749 §10.12). */
export function newState(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The authorization URL is where we send the person: it must be https (or a
 * loopback address, for local servers) and must bring them back to our own
 * loopback listener, nowhere else.
 */
function checkAuthorizationUrl(url: URL, redirectUrl: string, serverName: string): void {
  const loopback = url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new HostError(
      'sign_in_required',
      `Sign-in to "${serverName}" refused: the authorization page ${url.origin} is not https`,
    );
  }
  if (url.searchParams.get('redirect_uri') !== redirectUrl) {
    throw new HostError(
      'sign_in_required',
      `Sign-in to "${serverName}" refused: the authorization request would not return to this app's loopback address`,
    );
  }
}

/** A challenged scope as shown in a message: server text, so only printable ASCII of bounded length. */
function shownScope(scope: string | undefined): string {
  return scope !== undefined && /^[\x21-\x7E ]{1,200}$/.test(scope) ? ` (${scope})` : '';
}

/** A failure worth trying again (the network, a timeout, an authorization server error), not a refusal. */
function isPassingFailure(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current instanceof Error; depth++) {
    if (current instanceof RefreshDeferredError) return true;
    if (current instanceof OAuthError) return PASSING_OAUTH_ERRORS.has(current.code);
    if (current instanceof TypeError || current.name === 'AbortError' || current.name === 'TimeoutError')
      return true;
    current = current.cause;
  }
  return false;
}

/**
 * The account to show, from the ID token's claims. Display only: the token
 * came straight from the token endpoint over TLS, and nothing is decided on it.
 */
function accountOf(idToken: string): { account?: string } {
  const payload = idToken.split('.')[1];
  if (payload === undefined) return {};
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    for (const key of ['email', 'preferred_username', 'name', 'sub']) {
      const value = claims[key];
      if (typeof value === 'string' && value.length > 0) return { account: value.slice(0, 200) };
    }
  } catch {
    // Not a JWT we can read: no account shown.
  }
  return {};
}

function signInReasonAfterRefresh(error: unknown): string {
  if (error instanceof HostError) return error.message;
  return 'The sign-in expired or was revoked; sign in again';
}
