// Sign-out's revocation (RFC 7009): only at the endpoint of the issuer that issued the tokens, and the one line it ends with.
import { IssuerMismatchError, discoverAuthorizationServerMetadata } from '@modelcontextprotocol/client';
import type { FetchLike } from '@modelcontextprotocol/client';
import { hostOf, isSecureOrLoopback } from './oauth-network.js';
import type { StoredTokens } from './oauth-store.js';

/** Why sign-out forgot the tokens without revoking them (closed: each has its sentence in `skipText`). */
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

/** How the sign-out line is logged: a warning when the tokens may still be valid at their issuer. */
export function signOutLevel(outcome: SignOutOutcome): 'info' | 'warning' {
  return outcome.kind === 'nothing-held' || outcome.kind === 'revoked' ? 'info' : 'warning';
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

/**
 * Where sign-out may revoke the held tokens: only at the revocation
 * endpoint of the issuer that issued them, read from that issuer's own
 * metadata (never from the current discovery, which the MCP server
 * chooses), https or loopback only, authenticated with the client that
 * belongs to that issuer (`clientFor`; undefined or a throw: none).
 */
export async function revocationPlan(
  tokens: StoredTokens | undefined,
  clientFor: (issuer: string) => { client_id: string; client_secret?: string | undefined } | undefined,
  fetchFn: FetchLike,
): Promise<RevocationPlan> {
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
    client = clientFor(issuer);
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

/** Carries out a revocation plan: the request to the issuer's revocation endpoint, and how it ended. */
export async function revoke(
  plan: Extract<RevocationPlan, { kind: 'revoke' }>,
  fetchFn: FetchLike,
): Promise<SignOutOutcome> {
  const body = new URLSearchParams({ token: plan.token, token_type_hint: plan.hint });
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (plan.clientSecret !== undefined) {
    headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(plan.clientId)}:${encodeURIComponent(plan.clientSecret)}`).toString('base64')}`;
  } else {
    body.set('client_id', plan.clientId);
  }
  try {
    const response = await fetchFn(plan.endpoint, {
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
