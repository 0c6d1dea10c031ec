/**
 * A real OAuth 2.1 / OpenID Connect stack for the sign-in tests
 * (test/fixtures/oauth/): an authorization server from `oidc-provider` and a
 * Streamable HTTP MCP server on the official v2 server SDK that only answers
 * bearer tokens issued for it. Both listen on 127.0.0.1, ports chosen by the OS.
 * As a process for the e2e: `node test/fixtures/oauth/stack.mjs ['{"knob":…}']`
 * prints one JSON line with the URLs, the clients and a control URL.
 *
 * The authorization server (issuer `http://127.0.0.1:PORT`):
 * - metadata at `/.well-known/oauth-authorization-server` (RFC 8414) and
 *   `/.well-known/openid-configuration` (the same document);
 * - dynamic client registration at `/reg`, open (no initial access token);
 *   clients default to `application_type: native`, so a registered loopback
 *   redirect (`http://127.0.0.1:5000/callback`) matches any port later
 *   (RFC 8252 §7.3); a client that registers as `web` gets exact matching;
 * - pre-registered clients (`clients`): `confidentialBasic` and
 *   `confidentialPost` (code + refresh, redirect `http://127.0.0.1/callback` or
 *   `http://localhost/callback` on any port, override with `redirectUris`),
 *   `machine` (client_credentials, client_secret_basic) and `machineJwt`
 *   (client_credentials, private_key_jwt ES256; its private JWK is given);
 * - PKCE S256 required for every client; `iss` on every authorization response
 *   (RFC 9207); resource indicators (RFC 8707): access tokens are JWTs
 *   (`typ: at+jwt`, RS256) whose `aud` is the requested resource, which must be
 *   `mcpUrl` or `otherResource`; the token request may omit `resource`;
 * - scopes `mcp:read`, `mcp:admin` (resource scopes), `openid`, `email`,
 *   `offline_access`: a refresh token is issued only for `offline_access`, which
 *   oidc-provider drops when the request has a `prompt` without `consent`;
 *   refresh tokens rotate on every use, and replaying a rotated-out one (two
 *   refreshes racing) is invalid_grant and revokes the whole grant;
 * - Client ID Metadata Documents (draft-02, oidc-provider's experimental
 *   support) behind the `clientIdMetadataDocument` knob, with the documents
 *   given by `publishClientMetadata`;
 * - DPoP (RFC 9449): a token request with a DPoP proof gets a bound token;
 * - revocation at `/token/revocation` (RFC 7009); the dev login and consent
 *   pages (any login name signs in and becomes `sub`; email `<login>@example.test`).
 *
 * The MCP server at `mcpUrl` (`http://127.0.0.1:PORT/mcp`): refuses requests
 * without a valid token (signature from the AS's JWKS, `iss`, `aud` = `mcpUrl`,
 * not expired; a DPoP-bound token only with the DPoP scheme and a proof of its
 * key) with 401 and `WWW-Authenticate: Bearer resource_metadata="…"`;
 * protected-resource metadata at `/.well-known/oauth-protected-resource/mcp` and
 * `/.well-known/oauth-protected-resource`. Tools: `whoami` (sub, clientId,
 * scopes) and `admin-action`, which needs `mcp:admin` (403 insufficient_scope
 * with `scope="<held> mcp:admin"` otherwise: step-up).
 */
import { startOAuthStack as start } from '../fixtures/oauth/start-stack.mjs';

type MetadataMode = 'ok' | 'missing' | 'malformed' | 'wrong-shape' | 'wrong-issuer';

/** Live switches; pass some to `startOAuthStack` or change them any time with `set`. */
export interface OAuthStackKnobs {
  /** Lifetime of access tokens in seconds (default 3600), read at issuance. */
  accessTokenTtl: number;
  /** RFC 8414 document: 404, not JSON, wrong shape, or another `issuer`. */
  oauthMetadata: MetadataMode;
  /** OpenID discovery document, the same modes. */
  openidMetadata: MetadataMode;
  /** The token endpoint answers 500 (an HTML page) or 400 invalid_grant… */
  tokenFailure: 'server-error' | 'invalid-grant' | undefined;
  /** …for this grant type only (e.g. 'refresh_token'); every grant when unset. */
  tokenFailureGrantType: string | undefined;
  /**
   * The redirect back to the client, tampered: another `state`, none, a foreign
   * `iss`, none, or to a non-loopback https URL (same path and query).
   */
  authorizationResponse:
    'ok' | 'state-mismatch' | 'state-missing' | 'foreign-iss' | 'iss-missing' | 'foreign-redirect';
  /** Protected-resource metadata: 404, not JSON, wrong shape, or a `resource` that is not this server. */
  prm: 'ok' | 'missing' | 'malformed' | 'wrong-shape' | 'foreign-resource';
  /** false: the 401 has no `resource_metadata`, so clients must try the well-known URLs. */
  prmInChallenge: boolean;
  /** A `scope="…"` in the 401 challenge (space separated), none when unset. */
  challengeScope: string | undefined;
  /** `authorization_servers` of the metadata instead of the real issuer (a moved or dead AS). */
  authorizationServers: string[] | undefined;
  /** 'forever': `admin-action` answers 403 insufficient_scope even with `mcp:admin`. */
  stepUp: 'normal' | 'forever';
  /** false: the AS stops listening (connection refused); true: listens again on the same port. */
  authorizationServerReachable: boolean;
  /**
   * true: a dynamically registered client may only ask for the `scope` it
   * registered with (oidc-provider's own rule; step-up beyond it is then
   * invalid_scope). false (default): the registration's `scope` is ignored.
   */
  enforceRegisteredScope: boolean;
  /**
   * 'on': the AS advertises `client_id_metadata_document_supported` and takes an
   * https URL as client_id, reading the document from `publishClientMetadata`
   * (never the network; unpublished URLs are 404 → invalid_client).
   * 'off' (default): neither, so clients fall back to registration.
   */
  clientIdMetadataDocument: 'on' | 'off';
  /**
   * 'allowed' (default): DPoP-bound tokens (RFC 9449) are taken with the DPoP
   * scheme and a valid proof, plain ones as Bearer. 'required': Bearer is
   * refused (401, with a `DPoP` challenge beside the Bearer one).
   */
  dpop: 'allowed' | 'required';
}

/** Options of {@link startOAuthStack}: initial knobs plus the pre-registered clients' redirects. */
export interface OAuthStackOptions extends Partial<OAuthStackKnobs> {
  /** Redirect URIs of the pre-registered interactive clients (any port on loopback). */
  redirectUris?: string[];
  /** Default true: registered clients are native apps (loopback redirect on any port). */
  loopbackAnyPort?: boolean;
}

/** A pre-registered client, with its secret or private key. */
export interface StackClient {
  clientId: string;
  clientSecret?: string;
  privateJwk?: Record<string, string>;
  tokenEndpointAuthMethod: 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';
}

/** What the servers recorded (no tokens, no secrets). */
export interface StackEvent {
  event: string;
  /** Authorization server events: which one (see `switchAuthorizationServer`). */
  issuer?: string;
  clientId?: string;
  grantType?: string;
  error?: string;
  reason?: string;
  path?: string;
  scopes?: string[];
}

/** The running stack. */
export interface OAuthStack {
  /** The MCP server (also its resource identifier and the tokens' `aud`). */
  mcpUrl: string;
  /** Its protected-resource metadata (the path-suffixed well-known URL). */
  resourceMetadataUrl: string;
  /** A second resource the AS issues tokens for, which the MCP server must refuse. */
  otherResource: string;
  /** The current authorization server's issuer (its origin); changes with `switchAuthorizationServer`. */
  readonly issuer: string;
  scopes: { base: string; admin: string };
  /** The current authorization server's pre-registered clients. */
  readonly clients: {
    confidentialBasic: StackClient;
    confidentialPost: StackClient;
    machine: StackClient;
    machineJwt: StackClient;
  };
  /** The current knobs (read only; change them with `set`). */
  knobs: Readonly<OAuthStackKnobs>;
  set(changes: Partial<OAuthStackKnobs>): Promise<void>;
  /** Back to the knobs the stack started with. */
  reset(): Promise<void>;
  events: { authorizationServer: StackEvent[]; resourceServer: StackEvent[] };
  /**
   * Completes login and consent over HTTP with a fresh cookie jar, the way a
   * browser would, and returns the redirect to the client's callback without
   * calling it. `login` is the account (default 'alice'); `deny` presses Cancel
   * (the callback then carries error=access_denied). Throws with the page's text
   * when the AS shows an error page instead (e.g. an unregistered redirect).
   */
  completeSignIn(authorizationUrl: string | URL, options?: { login?: string; deny?: boolean }): Promise<URL>;
  /** Destroys refresh tokens (of one account, else all); the next refresh is invalid_grant. Returns how many. */
  revokeRefreshTokens(accountId?: string): number;
  /** Every access token issued until now is refused by the MCP server from now on (401 invalid_token). */
  expireAccessTokens(): void;
  /**
   * Serves `document` as the Client ID Metadata Document at the https `url`
   * (what the host would publish there; a string is served as is), or stops
   * serving it when `document` is undefined. Needs `clientIdMetadataDocument: 'on'`.
   */
  publishClientMetadata(url: string, document: object | string | undefined): void;
  /**
   * The MCP server moves to a new authorization server (new issuer, keys,
   * clients and registrations): its metadata names the new one, and tokens of
   * the old one (which keeps running) get 401 from now on.
   */
  switchAuthorizationServer(): Promise<{ issuer: string; clients: OAuthStack['clients'] }>;
  close(): Promise<void>;
}

/** Starts the stack; `close()` it in afterAll/afterEach. */
export async function startOAuthStack(options: OAuthStackOptions = {}): Promise<OAuthStack> {
  return (await start(options)) as OAuthStack;
}

/**
 * A client-credentials token request (client_secret_basic) at `issuer`, for a
 * stack's `machine` client: the raw response, so tests can check its status.
 */
export function clientCredentialsToken(options: {
  issuer: string;
  client: StackClient;
  resource: string;
  scope: string;
}): Promise<Response> {
  const { clientId, clientSecret = '' } = options.client;
  return fetch(`${options.issuer}/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      resource: options.resource,
      scope: options.scope,
    }),
  });
}

/** A JSON-RPC ping to the stack's MCP server with `token`: 200 when the token is accepted. */
export function pingMcp(mcpUrl: string, token: string): Promise<Response> {
  return fetch(mcpUrl, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });
}
