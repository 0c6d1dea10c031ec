// A machine grant's credentials bound to the first authorization server (issuer and token endpoint origin) they were used with.
import type {
  AddClientAuthentication,
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { OAuthConfig } from '../../../../../shared/model/config.js';
import { HostError } from '../../../errors.js';
import { originOf, sameIssuer } from './oauth-network.js';
import type { MachineBinding, OAuthStore } from './oauth-store.js';

/** The authorization server one token request goes to. */
interface Target {
  issuer: string;
  tokenOrigin: string;
}

export interface MachineBindingOptions {
  serverName: string;
  /** The protected resource (the server's URL, expanded): the store's key with the name. */
  resource: string;
  oauth: OAuthConfig;
  store: OAuthStore;
  /** The binding was made (first successful token request). */
  onChange: () => void;
}

/**
 * Which credentials a binding belongs to: another grant, client ID or
 * `oauth.issuer` is another identity, whose binding starts afresh.
 */
export function credentialsKey(oauth: OAuthConfig): string {
  return JSON.stringify([oauth.grant ?? null, oauth.clientId ?? null, oauth.issuer ?? null]);
}

/**
 * The SDK's provider for a machine grant, wrapped so its client secret,
 * private-key assertion or workload JWT only ever goes to one authorization
 * server: `oauth.issuer` when set, else the first one a token was obtained
 * from (kept in the OAuth store, so it survives restarts; a changed URL or
 * credentials identity forgets it). The check runs when the SDK has
 * discovered where the token request would go, before anything is sent.
 */
export class IssuerBoundMachineProvider implements OAuthClientProvider {
  private binding: MachineBinding | undefined;
  /** Where the running token request goes, until its tokens come back. */
  private pending: Target | undefined;

  private constructor(
    private readonly inner: OAuthClientProvider,
    private readonly options: MachineBindingOptions,
    binding: MachineBinding | undefined,
  ) {
    this.binding = binding;
  }

  /**
   * `build` makes the SDK's provider for the issuer the credentials are
   * bound to (its `expectedIssuer`, so the SDK checks it too), or for none
   * before their first use.
   */
  static async create(
    build: (issuer: string | undefined) => OAuthClientProvider,
    options: MachineBindingOptions,
  ): Promise<IssuerBoundMachineProvider> {
    const record = await options.store.get(options.serverName, options.resource);
    const stored = record.machineBinding;
    const binding = stored?.credentials === credentialsKey(options.oauth) ? stored : undefined;
    return new IssuerBoundMachineProvider(build(options.oauth.issuer ?? binding?.issuer), options, binding);
  }

  /** The issuer the credentials belong to (shown in the server view); undefined before their first use. */
  boundIssuer(): string | undefined {
    return this.binding?.issuer ?? this.options.oauth.issuer;
  }

  // ---- OAuthClientProvider: the inner provider's, behind the check.

  get redirectUrl(): undefined {
    return undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    return this.inner.clientMetadata;
  }

  get addClientAuthentication(): AddClientAuthentication | undefined {
    return this.inner.addClientAuthentication;
  }

  clientInformation(
    ctx?: OAuthClientInformationContext,
  ): StoredOAuthClientInformation | undefined | Promise<StoredOAuthClientInformation | undefined> {
    if (ctx?.issuer !== undefined) this.checkIssuer(ctx.issuer, this.pending?.tokenOrigin);
    return this.inner.clientInformation(ctx);
  }

  tokens(ctx?: OAuthClientInformationContext): ReturnType<OAuthClientProvider['tokens']> {
    return this.inner.tokens(ctx);
  }

  async saveTokens(tokens: StoredOAuthTokens, ctx?: OAuthClientInformationContext): Promise<void> {
    await this.inner.saveTokens(tokens, ctx);
    const target = this.pending;
    this.pending = undefined;
    if (target === undefined || this.binding !== undefined) return;
    const binding: MachineBinding = { credentials: credentialsKey(this.options.oauth), ...target };
    this.binding = binding;
    await this.options.store.update(this.options.serverName, this.options.resource, (record) => {
      record.machineBinding = binding;
    });
    this.options.onChange();
  }

  redirectToAuthorization(url: URL): void | Promise<void> {
    return this.inner.redirectToAuthorization(url);
  }

  saveCodeVerifier(verifier: string): void | Promise<void> {
    return this.inner.saveCodeVerifier(verifier);
  }

  codeVerifier(): string | Promise<string> {
    return this.inner.codeVerifier();
  }

  async prepareTokenRequest(scope?: string): Promise<URLSearchParams | undefined> {
    // The last check before the grant is assembled (an enterprise grant asks its identity provider here).
    if (this.pending !== undefined) this.checkIssuer(this.pending.issuer, this.pending.tokenOrigin);
    return this.inner.prepareTokenRequest?.(scope);
  }

  /** Cross-App Access (the enterprise grant) reads the authorization server from this. */
  saveAuthorizationServerUrl(url: string): void | Promise<void> {
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- CrossAppAccessProvider still needs it
    return this.inner.saveAuthorizationServerUrl?.(url);
  }

  saveResourceUrl(url: string): void | Promise<void> {
    return this.inner.saveResourceUrl?.(url);
  }

  /** Nothing cached: each flow discovers afresh, and its discovery is checked below. */
  discoveryState(): undefined {
    return undefined;
  }

  /** The SDK found where the token request will go: refused unless that is where the credentials belong. */
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    const metadata = state.authorizationServerMetadata;
    const issuer = metadata?.issuer ?? state.authorizationServerUrl;
    const endpoint = metadata?.token_endpoint ?? new URL('/token', state.authorizationServerUrl).href;
    const tokenOrigin = originOf(endpoint) ?? endpoint;
    this.pending = undefined;
    this.checkIssuer(issuer, tokenOrigin);
    this.pending = { issuer, tokenOrigin };
  }

  private checkIssuer(issuer: string, tokenOrigin: string | undefined): void {
    const where = `Server "${this.options.serverName}"`;
    const pinned = this.options.oauth.issuer;
    if (pinned !== undefined && !sameIssuer(pinned, issuer)) {
      throw new HostError(
        'sign_in_required',
        `${where}: its oauth.issuer is ${pinned}, but the server sends its credentials to ${issuer}; refused`,
      );
    }
    const bound = this.binding;
    if (bound === undefined) return;
    if (!sameIssuer(bound.issuer, issuer)) {
      throw new HostError(
        'sign_in_required',
        `${where}: its client credentials belong to ${bound.issuer}, but the server sends them to ${issuer}; refused`,
      );
    }
    if (tokenOrigin !== undefined && tokenOrigin !== bound.tokenOrigin) {
      throw new HostError(
        'sign_in_required',
        `${where}: its client credentials belong to ${bound.issuer} with the token endpoint at ${bound.tokenOrigin}, but the server sends them to ${tokenOrigin}; refused`,
      );
    }
  }
}
