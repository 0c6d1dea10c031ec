// What the server view shows of a sign-in (ServerAuth): built from the sign-in state and the stored record, bounded to the view's schema.
import type { ServerAuth } from '../../../../../shared/model/server.js';
import { ellipsize } from '../../../text.js';
import type { MachineGrant } from './machine-providers.js';
import type { OAuthRecord } from './oauth-store.js';
import type { SignInState } from './sign-in-state.js';
import { signInLine } from './sign-in-state.js';

/** Bounds of what the server view shows (ServerAuthSchema). */
const MAX_SHOWN_ISSUER = 2048;
const MAX_SHOWN_SCOPES = 256;
const MAX_SHOWN_SCOPE = 256;
/** Longest authorization link the server view shows. */
const MAX_SHOWN_URL = 8192;
/** How the server view names a machine grant's client. */
const MACHINE_CLIENT = {
  client_credentials: 'client-credentials',
  jwt_bearer: 'workload-identity',
  enterprise: 'enterprise',
} as const satisfies Record<MachineGrant, NonNullable<ServerAuth['client']>>;

/** A browser sign-in's facts for the view: whether tokens are held, and what of them is shown (never a token). */
export type SignInFacts = Omit<ServerAuth, 'state'> & { signedIn: boolean };

/**
 * The facts of a stored sign-in. Everything here came from the
 * authorization server: bounded to what the view's schema accepts.
 */
export function recordFacts(
  record: OAuthRecord,
  discoveredIssuer: string | undefined,
  clientIssuer: string | undefined,
): SignInFacts {
  const tokens = record.tokens;
  const issuer = tokens?.issuer ?? discoveredIssuer;
  const expiresAt = record.expiresAt;
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
    ...(record.clientKind !== undefined ? { client: record.clientKind } : {}),
    ...(clientIssuer !== undefined ? { clientIssuer: ellipsize(clientIssuer, MAX_SHOWN_ISSUER) } : {}),
  };
}

/**
 * The server view's auth state; undefined for a server that never asked
 * for OAuth. `browser`: the facts of the browser sign-in's record; `machine`:
 * the machine grant and the issuer its credentials are bound to.
 */
export function describeAuth(
  state: SignInState,
  browser: SignInFacts | undefined,
  machine: { grant: MachineGrant; issuer: string | undefined } | undefined,
): ServerAuth | undefined {
  const { signedIn, ...shown } = browser ?? { signedIn: false };
  const machineShown =
    machine?.issuer !== undefined ? { clientIssuer: ellipsize(machine.issuer, MAX_SHOWN_ISSUER) } : {};
  switch (state.kind) {
    case 'signing-in': {
      // A link longer than the view accepts (a hostile authorization endpoint) is not offered.
      const link =
        (state.authorizationUrl?.length ?? 0) <= MAX_SHOWN_URL ? state.authorizationUrl : undefined;
      return {
        ...shown,
        state: 'waiting',
        waitingUntil: state.until,
        ...(link !== undefined ? { authorizationUrl: link } : {}),
      };
    }
    case 'required':
      return { ...shown, ...machineShown, state: 'required', message: signInLine(state.reason) };
    case 'idle':
      if (signedIn) return { ...shown, state: 'signed-in' };
      if (machine) return { state: 'signed-in', client: MACHINE_CLIENT[machine.grant], ...machineShown };
      return undefined;
  }
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
