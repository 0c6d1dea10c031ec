import {
  ClientCredentialsProvider,
  CrossAppAccessProvider,
  PrivateKeyJwtProvider,
  discoverAndRequestJwtAuthGrant,
  requestJwtAuthorizationGrant,
} from '@modelcontextprotocol/client';
import type {
  CrossAppAccessContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { OAuthConfig } from '../../../../../shared/model/config.js';
import { HostError } from '../../../errors.js';
import { expandEnvReferences } from '../../config/env-references.js';

/** The grant types that need no person and no browser. */
export type MachineGrant = 'client_credentials' | 'jwt_bearer' | 'enterprise';

export const isMachineGrant = (grant: OAuthConfig['grant']): grant is MachineGrant =>
  grant === 'client_credentials' || grant === 'jwt_bearer' || grant === 'enterprise';

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const CLIENT_NAME = 'MCP Host';

/**
 * The SDK's auth provider for a machine grant (client credentials with a
 * secret or a private key, a workload's JWT, or an enterprise identity
 * provider's grant). Secrets are `${env:NAME}` references, read from `env`
 * when a token is requested, so a rotated workload token is picked up at the
 * next request. Throws one line (config_invalid) for an incomplete entry.
 */
export function machineProvider(
  serverName: string,
  grant: MachineGrant,
  oauth: OAuthConfig,
  env: Readonly<Record<string, string | undefined>>,
): OAuthClientProvider {
  const missing = (key: string, what: string) =>
    new HostError('config_invalid', `Server "${serverName}": ${what} needs "oauth.${key}"`);
  const fromEnv = (ref: string | undefined, key: string) =>
    ref !== undefined ? expandEnvReferences(ref, env, `Server "${serverName}" oauth.${key}`) : undefined;
  const scope = oauth.scopes?.join(' ');
  const clientId = oauth.clientId;
  // The SDK sends credentials only to this issuer when it is known; otherwise to whichever the server names.
  const expectedIssuer = oauth.issuer;
  const pinned = expectedIssuer !== undefined ? { expectedIssuer } : {};

  if (grant === 'jwt_bearer') {
    const ref = oauth.assertion;
    if (ref === undefined) throw missing('assertion', 'workload identity (jwt_bearer)');
    if (clientId === undefined) throw missing('clientId', 'workload identity (jwt_bearer)');
    return new JwtBearerProvider({
      clientId,
      expectedIssuer,
      clientSecret: fromEnv(oauth.clientSecret, 'clientSecret'),
      assertion: () => fromEnv(ref, 'assertion') ?? '',
    });
  }

  if (grant === 'enterprise') {
    const idp = oauth.enterprise;
    if (idp === undefined) throw missing('enterprise', 'enterprise-managed authorization');
    if (clientId === undefined) throw missing('clientId', 'enterprise-managed authorization');
    const clientSecret = fromEnv(oauth.clientSecret, 'clientSecret');
    if (clientSecret === undefined) throw missing('clientSecret', 'enterprise-managed authorization');
    // Checked now, so a missing variable is a config error at connect, not a failed token request.
    fromEnv(idp.idToken, 'enterprise.idToken');
    fromEnv(idp.clientSecret, 'enterprise.clientSecret');
    const exchange = async (context: CrossAppAccessContext): Promise<string> => {
      const request = {
        audience: context.authorizationServerUrl,
        resource: context.resourceUrl,
        idToken: fromEnv(idp.idToken, 'enterprise.idToken') ?? '',
        clientId: idp.clientId,
        ...(idp.clientSecret !== undefined
          ? { clientSecret: fromEnv(idp.clientSecret, 'enterprise.clientSecret') }
          : {}),
        ...(context.scope !== undefined ? { scope: context.scope } : {}),
        fetchFn: context.fetchFn,
      };
      try {
        const result =
          idp.tokenEndpoint !== undefined
            ? await requestJwtAuthorizationGrant({ ...request, tokenEndpoint: idp.tokenEndpoint })
            : await discoverAndRequestJwtAuthGrant({ ...request, idpUrl: idp.issuer });
        return result.jwtAuthGrant;
      } catch (error) {
        throw identityProviderFailure(serverName, idp.issuer, error);
      }
    };
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the issuer is only known after discovery
    return new CrossAppAccessProvider({
      assertion: exchange,
      clientId,
      clientSecret,
      clientName: CLIENT_NAME,
    });
  }

  if (clientId === undefined) throw missing('clientId', 'client credentials');
  if (oauth.tokenEndpointAuthMethod === 'private_key_jwt') {
    const privateKey = fromEnv(oauth.privateKey, 'privateKey');
    if (privateKey === undefined) throw missing('privateKey', 'private_key_jwt');
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- without oauth.issuer it is only known after discovery
    return new PrivateKeyJwtProvider({
      ...pinned,
      clientId,
      privateKey,
      algorithm: oauth.signingAlgorithm ?? 'ES256',
      clientName: CLIENT_NAME,
      ...(scope ? { scope } : {}),
    });
  }
  const clientSecret = fromEnv(oauth.clientSecret, 'clientSecret');
  if (clientSecret === undefined) throw missing('clientSecret', 'client credentials');
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- without oauth.issuer it is only known after discovery
  return new ClientCredentialsProvider({
    ...pinned,
    clientId,
    clientSecret,
    clientName: CLIENT_NAME,
    ...(scope ? { scope } : {}),
  });
}

/**
 * One line for a failed token exchange at the identity provider. Its error
 * code is kept (from a fixed alphabet), never its description, which the
 * provider chose.
 */
function identityProviderFailure(serverName: string, issuer: string, error: unknown): HostError {
  const message = error instanceof Error ? error.message : '';
  const code = /^Token exchange failed: ([a-z_]{1,64})\b/.exec(message)?.[1];
  const host = URL.canParse(issuer) ? new URL(issuer).host : 'the identity provider';
  const reason =
    code !== undefined
      ? `refused the token exchange (${code}); your ID token may have expired`
      : 'could not exchange your ID token for a grant';
  return new HostError(
    'sign_in_required',
    `Server "${serverName}": the identity provider ${host} ${reason}`,
    {
      cause: error,
    },
  );
}

interface JwtBearerOptions {
  clientId: string;
  /** A confidential client authenticates with it (client_secret_basic); a public one sends only its id. */
  clientSecret?: string | undefined;
  /** The workload's JWT, read for each token request. */
  assertion: () => string;
  /** The only authorization server the assertion may go to, when configured. */
  expectedIssuer?: string | undefined;
}

/**
 * Workload identity federation (RFC 7523 §2.1): the workload's own JWT,
 * issued by its platform (a cloud, a CI system, a cluster), is exchanged for
 * an access token. The SDK has no provider for this grant; this is the
 * OAuthClientProvider it needs, with no browser, no registration and no
 * refresh (a refused grant is reported, never retried with another grant).
 */
export class JwtBearerProvider implements OAuthClientProvider {
  private held: StoredOAuthTokens | undefined;

  constructor(private readonly options: JwtBearerOptions) {}

  get redirectUrl(): undefined {
    return undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: CLIENT_NAME,
      redirect_uris: [],
      grant_types: [JWT_BEARER],
      token_endpoint_auth_method: this.options.clientSecret !== undefined ? 'client_secret_basic' : 'none',
    };
  }

  clientInformation(): StoredOAuthClientInformation {
    return {
      client_id: this.options.clientId,
      ...(this.options.clientSecret !== undefined ? { client_secret: this.options.clientSecret } : {}),
      ...(this.options.expectedIssuer !== undefined ? { issuer: this.options.expectedIssuer } : {}),
    };
  }

  tokens(): StoredOAuthTokens | undefined {
    return this.held;
  }

  saveTokens(tokens: StoredOAuthTokens): void {
    this.held = tokens;
  }

  redirectToAuthorization(): void {
    throw new HostError('sign_in_required', 'A workload identity grant has no browser sign-in');
  }

  saveCodeVerifier(): void {
    // No authorization code in this grant.
  }

  codeVerifier(): string {
    throw new HostError('sign_in_required', 'A workload identity grant has no authorization code');
  }

  prepareTokenRequest(scope?: string): URLSearchParams {
    const assertion = this.options.assertion();
    if (assertion === '') throw new HostError('sign_in_required', 'The workload identity token is empty');
    const params = new URLSearchParams({ grant_type: JWT_BEARER, assertion });
    if (scope) params.set('scope', scope);
    return params;
  }
}
