// One server's sign-in state and why it needs a sign-in, as closed unions, with the one line each reason shows.
import { HostError } from '../../../errors.js';
import type { SignOutOutcome } from './revocation.js';
import { describeSignOut } from './revocation.js';

/** Why a server needs a sign-in (closed: each has its line in `signInLine`). */
export type SignInReason =
  /** Nothing held; `host`: where the sign-in would go, when known. */
  | { code: 'not-signed-in'; host?: string | undefined }
  /** A held token is no longer enough. */
  | { code: 'asks-again' }
  /** A held token was refused for want of scope (a step-up); `scope`: what the server asked for. */
  | { code: 'more-permissions'; scope: string | undefined }
  /** The authorization server refused the refresh token. */
  | { code: 'expired-or-revoked' }
  | { code: 'signed-out'; outcome: SignOutOutcome }
  /** A sign-in, connect or request failed: its one line, already checked (auth-errors.ts, the issuer checks). */
  | { code: 'failed'; failure: HostError };

/** The line the server view and the log show for `reason`. */
export function signInLine(reason: SignInReason): string {
  switch (reason.code) {
    case 'not-signed-in':
      return `Sign in${reason.host !== undefined ? ` at ${reason.host}` : ''} to use this server`;
    case 'asks-again':
      return 'The server asks for a new sign-in';
    case 'more-permissions':
      return `The server needs more permissions${shownScope(reason.scope)}; sign in again to grant them`;
    case 'expired-or-revoked':
      return 'The sign-in expired or was revoked; sign in again';
    case 'signed-out':
      return describeSignOut(reason.outcome);
    case 'failed':
      return reason.failure.message;
  }
}

/**
 * Where one server's sign-in is. Whether it is signed in is what the store
 * holds (tokens) or a machine grant; this is what is asked of the person.
 */
export type SignInState =
  | { kind: 'idle' }
  | { kind: 'required'; reason: SignInReason }
  | {
      kind: 'signing-in';
      /** When the browser sign-in gives up. */
      until: number;
      cancel: (reason: HostError) => void;
      /** The authorization page, once known (offered as a link when no browser opens). */
      authorizationUrl?: string | undefined;
    };

/**
 * The sign-in state of one server, in one place: what the person is asked
 * (`state`, kept by ServerAuthSession) and why the last background flow
 * stopped (`stopped`, kept by HostOAuthProvider, which meets it inside the
 * SDK's calls).
 */
export class SignInStatus {
  state: SignInState = { kind: 'idle' };
  stopped: SignInReason | undefined;

  /** The server needs a sign-in. A browser sign-in under way ends in its own state. */
  require(reason: SignInReason): void {
    if (this.state.kind !== 'signing-in') this.state = { kind: 'required', reason };
  }

  /** Nothing is asked (a connect worked). A browser sign-in under way ends in its own state. */
  clear(): void {
    if (this.state.kind !== 'signing-in') this.state = { kind: 'idle' };
  }
}

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
  constructor(readonly reason: SignInReason) {
    super(signInLine(reason));
    this.name = 'SignInNeededError';
  }
}

/** A challenged scope as shown in a message: server text, so only printable ASCII of bounded length. */
function shownScope(scope: string | undefined): string {
  return scope !== undefined && /^[\x21-\x7E ]{1,200}$/.test(scope) ? ` (${scope})` : '';
}
