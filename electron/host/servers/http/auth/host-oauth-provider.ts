import { DpopSession, auth } from '@modelcontextprotocol/client';
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
import type { OAuthConfig } from '../../../../../shared/model/config.js';
import { HostError } from '../../../errors.js';
import { recordFacts } from './auth-view.js';
import type { SignInFacts } from './auth-view.js';
import { ClientBinding, appClientMetadata } from './client-binding.js';
import { discoveredIssuer, discoveredMetadata, forgetCredentials, mergeTokens } from './oauth-store.js';
import type { OAuthRecord, OAuthStore } from './oauth-store.js';
import { CALLBACK_PATH } from './loopback-redirect.js';
import { hostOf } from './oauth-network.js';
import type { RefreshOutcome } from './oauth-fetch.js';
import { TokenRefresher } from './refresh-backoff.js';
import { revocationPlan } from './revocation.js';
import type { RevocationPlan } from './revocation.js';
import { StepUpLimit, checkAuthorizationUrl } from './sign-in-checks.js';
import { RefreshDeferredError, SignInNeededError } from './sign-in-state.js';
import type { SignInReason, SignInStatus } from './sign-in-state.js';

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

/** The redirect URI a background flow names (never used: it stops before the browser). */
const PLACEHOLDER_REDIRECT = `http://127.0.0.1${CALLBACK_PATH}`;

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
  /** The server's sign-in state (ServerAuthSession's); a new one when not given. */
  status?: SignInStatus | undefined;
}

export class HostOAuthProvider implements OAuthClientProvider {
  private record: OAuthRecord;
  private interactive: InteractiveSignIn | undefined;
  private verifier: string | undefined;
  private refreshing: Promise<void> | undefined;
  private readonly stepUps = new StepUpLimit();
  private dpopSession: Promise<DpopSession> | undefined;
  /** The scope of the last `insufficient_scope` challenge (a step-up), if the last challenge was one. */
  private stepUpScope: { scope: string | undefined } | undefined;
  private readonly binding: ClientBinding;
  /** The refresh shortly before expiry, one at a time, backing off after a passing failure. */
  private readonly refresher = new TokenRefresher({
    expiresAt: () => (this.record.tokens?.refresh_token !== undefined ? this.record.expiresAt : undefined),
    hasTokens: () => this.record.tokens !== undefined,
    refresh: async () => {
      const result = await auth(this, { serverUrl: this.options.resource, fetchFn: this.options.fetch });
      if (result !== 'AUTHORIZED') throw this.needSignIn();
    },
    refused: async (error) => {
      this.status.stopped =
        error instanceof HostError ? { code: 'failed', failure: error } : { code: 'expired-or-revoked' };
      await this.invalidateCredentials('tokens');
    },
  });
  /** Why the last background flow stopped is kept here, with the rest of the server's sign-in state. */
  private readonly status: Pick<SignInStatus, 'stopped'>;

  private constructor(
    private readonly options: HostOAuthProviderOptions,
    record: OAuthRecord,
  ) {
    this.record = record;
    this.status = options.status ?? { stopped: undefined };
    this.binding = new ClientBinding({
      serverName: options.serverName,
      config: options.config,
      env: options.env,
      record: () => this.record,
    });
  }

  /** Loads what the store holds for this server and resource. */
  static async create(options: HostOAuthProviderOptions): Promise<HostOAuthProvider> {
    return new HostOAuthProvider(options, await options.store.get(options.serverName, options.resource));
  }

  // ---- What the person sees (never a token).

  /** The facts for the server view (auth-view.ts). */
  describe(): SignInFacts {
    return recordFacts(this.record, discoveredIssuer(this.record), this.binding.boundIssuer());
  }

  /** Why the last background flow stopped, for the "Sign-in required" line. */
  get signInReason(): SignInReason | undefined {
    return this.status.stopped;
  }

  /** A sign-in the person started is about to go to `issuer` (client-binding.ts: refused, or bound at first use). */
  acceptIssuer(issuer: string): void {
    this.binding.accept(issuer);
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
    const metadata = discoveredMetadata(this.record);
    if (!metadata) return [];
    return ['token_endpoint', 'registration_endpoint', 'revocation_endpoint', 'authorization_endpoint']
      .map((key) => metadata[key])
      .filter((value): value is string => typeof value === 'string');
  }

  /** How the last refresh-token request ended (oauth-fetch.ts): a passing failure keeps the tokens and backs off. */
  refreshOutcome(outcome: RefreshOutcome): void {
    this.refresher.backoff.record(outcome);
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
    this.status.stopped = undefined;
    if (this.record.redirectPort !== undefined && this.record.redirectPort !== session.port) {
      // A dynamic registration names its redirect URI; on another port it would be refused.
      await this.change((record) => {
        forgetCredentials(record, 'registrations', this.options.config.clientId);
      });
    }
  }

  endInteractive(): void {
    this.interactive = undefined;
    this.binding.endSignIn();
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
    return appClientMetadata(
      this.redirectUrl ?? PLACEHOLDER_REDIRECT,
      this.options.config,
      this.options.appVersion,
    );
  }

  state(): string {
    if (!this.interactive) throw this.needSignIn();
    return this.interactive.state;
  }

  clientInformation(ctx?: OAuthClientInformationContext): StoredOAuthClientInformation | undefined {
    const preRegistered = this.binding.client(ctx?.issuer);
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
    if (ctx === undefined) await this.refresher.refreshIfExpiring();
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
      mergeTokens(record, tokens, issuer, kind);
    });
    this.status.stopped = undefined;
    this.options.onChange();
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const session = this.interactive;
    if (!session) throw this.needSignIn();
    checkAuthorizationUrl(authorizationUrl, session.redirectUrl, this.options.serverName);
    if (this.record.tokens !== undefined)
      this.stepUps.count(this.options.serverName, authorizationUrl.searchParams.get('scope'));
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
    return this.binding.clientAuthentication();
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
      this.status.stopped ??= { code: 'expired-or-revoked' };
    }
    await this.change((record) => {
      forgetCredentials(record, scope);
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
    this.refresher.backoff.reset();
    this.options.onChange();
  }

  /** Where sign-out may revoke the held tokens (revocation.ts): the issuer's own endpoint, with its own client. */
  revocationPlan(fetchFn: FetchLike): Promise<RevocationPlan> {
    return revocationPlan(this.record.tokens, (issuer) => this.clientInformationFor(issuer), fetchFn);
  }

  private needSignIn(): SignInNeededError | RefreshDeferredError {
    const retryIn = this.refresher.backoff.retryInSeconds();
    if (this.record.tokens !== undefined && retryIn !== undefined) {
      // The refresh failed for a passing reason: keep the sign-in, try again later.
      const issuer = this.record.tokens.issuer;
      return new RefreshDeferredError(
        `Server "${this.options.serverName}": could not renew the sign-in${issuer !== undefined ? ` at ${hostOf(issuer)}` : ''}; trying again in ${String(retryIn)} s`,
      );
    }
    const issuer = discoveredIssuer(this.record);
    const reason: SignInReason =
      this.status.stopped ??
      (this.record.tokens !== undefined
        ? { code: 'asks-again' }
        : { code: 'not-signed-in', host: issuer !== undefined ? hostOf(issuer) : undefined });
    this.status.stopped = reason;
    // A held token refused for want of scope: say which permission is missing.
    if (reason.code === 'asks-again' && this.stepUpScope !== undefined)
      return new SignInNeededError({ code: 'more-permissions', scope: this.stepUpScope.scope });
    return new SignInNeededError(reason);
  }

  private clientInformationFor(
    issuer: string | undefined,
  ): { client_id: string; client_secret?: string } | undefined {
    const pre = this.binding.client(issuer);
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

  private async change(apply: (record: OAuthRecord) => void): Promise<void> {
    this.record = await this.options.store.update(this.options.serverName, this.options.resource, apply);
  }
}
