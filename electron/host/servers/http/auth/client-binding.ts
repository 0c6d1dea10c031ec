// A pre-registered client (client ID from the config) belongs to one issuer: oauth.issuer, else the first one it signed in at.
import { createPrivateKeyJwtAuth } from '@modelcontextprotocol/client';
import type {
  AddClientAuthentication,
  OAuthClientMetadata,
  StoredOAuthClientInformation,
} from '@modelcontextprotocol/client';
import type { OAuthConfig } from '../../../../../shared/model/config.js';
import { HostError } from '../../../errors.js';
import { expandEnvReferences } from '../../config/env-references.js';
import { sameIssuer } from './oauth-network.js';
import type { OAuthRecord } from './oauth-store.js';

/** App identity shown to authorization servers. */
export const CLIENT_NAME = 'MCP Host';
export const CLIENT_URI = 'https://github.com/mcp-host/mcp-host';

/** The app's client metadata (registration, Client ID Metadata Document): a public native client. */
export function appClientMetadata(
  redirectUrl: string,
  config: OAuthConfig,
  appVersion: string,
): OAuthClientMetadata {
  const scope = config.scopes?.join(' ');
  return {
    client_name: CLIENT_NAME,
    client_uri: CLIENT_URI,
    redirect_uris: [redirectUrl],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    software_id: 'mcp-host',
    software_version: appVersion,
    ...(scope ? { scope } : {}),
  };
}

export interface ClientBindingOptions {
  serverName: string;
  config: OAuthConfig;
  /** `${env:NAME}` values of the config, resolved. */
  env: Readonly<Record<string, string | undefined>>;
  /** The server's current OAuth record (the store's). */
  record: () => OAuthRecord;
}

/**
 * The issuer policy of a pre-registered client: which issuer it belongs to,
 * whether a sign-in may go to an issuer, and the client information (with
 * its secret only for its own issuer) the SDK gets.
 */
export class ClientBinding {
  /** The issuer a first sign-in with the pre-registered client goes to (bound when it succeeds). */
  private pending: string | undefined;

  constructor(private readonly options: ClientBindingOptions) {}

  /**
   * The issuer the pre-registered client belongs to: `oauth.issuer`, else
   * the first one it was used with; undefined when there is no such client
   * or it was never used.
   */
  boundIssuer(): string | undefined {
    const config = this.options.config;
    if (config.clientId === undefined) return undefined;
    const record = this.options.record();
    return (
      config.issuer ??
      record.clientIssuer ??
      (record.clientKind === 'pre-registered' ? record.tokens?.issuer : undefined) ??
      this.pending
    );
  }

  /**
   * A sign-in the person started is about to go to `issuer`: refused (one
   * line naming both) when `oauth.issuer` names another one, or when the
   * pre-registered client belongs to another one; a pre-registered client
   * used for the first time is bound to it.
   */
  accept(issuer: string): void {
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
    if (this.options.config.clientId !== undefined && bound === undefined) this.pending = issuer;
  }

  /** The sign-in ended: a first use that got no tokens binds nothing. */
  endSignIn(): void {
    this.pending = undefined;
  }

  /** The pre-registered client for `issuer`, with its secret only once bound to it; undefined without one. */
  client(issuer: string | undefined): StoredOAuthClientInformation | undefined {
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

  /** A pre-registered client's private_key_jwt authentication at the token endpoint; undefined otherwise. */
  clientAuthentication(): AddClientAuthentication | undefined {
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

  /** The private_key_jwt key: the config's `${env:}` reference, else one typed in the app. */
  private privateKey(): string | undefined {
    const ref = this.options.config.privateKey;
    if (ref !== undefined)
      return expandEnvReferences(
        ref,
        this.options.env,
        `Server "${this.options.serverName}" oauth.privateKey`,
      );
    return this.options.record().privateKey;
  }

  private clientSecret(): string | undefined {
    const ref = this.options.config.clientSecret;
    if (ref !== undefined)
      return expandEnvReferences(
        ref,
        this.options.env,
        `Server "${this.options.serverName}" oauth.clientSecret`,
      );
    return this.options.record().clientSecret;
  }

  private foreignIssuer(bound: string, issuer: string): HostError {
    return new HostError(
      'sign_in_required',
      `Server "${this.options.serverName}": its client ID belongs to ${bound}, but the server sends the sign-in to ${issuer}; refused`,
    );
  }
}
