import {
  AuthorizationServerMismatchError,
  InsecureTokenEndpointError,
  InsufficientScopeError,
  IssuerMismatchError,
  OAuthClientFlowError,
  OAuthError,
  RegistrationRejectedError,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { HostError, describeError } from '../../../errors.js';
import { RefreshDeferredError, SignInNeededError, signInLine } from './sign-in-state.js';
import { OAuthFetchRefusedError } from './oauth-network.js';

/**
 * One line for everything that can go wrong in a sign-in, or undefined when
 * the error has nothing to do with OAuth. Text that an attacker could have
 * chosen (an authorization response's `error_description`, the `iss` of a
 * mix-up, a token endpoint's body) is never quoted: only error codes from a
 * fixed alphabet and hosts the host itself discovered.
 */
export function describeAuthFailure(
  serverName: string,
  error: unknown,
  unreachable?: string,
  /** The entry signs in without a person (client credentials, workload identity, enterprise). */
  machine = false,
): HostError | undefined {
  const where = `Server "${serverName}"`;
  const found = findAuthError(error);
  if (found === undefined) return undefined;
  const fail = (text: string) => new HostError('sign_in_required', text, { cause: found });
  if (found instanceof HostError) return found;
  if (found instanceof SignInNeededError) return fail(signInLine(found.reason));
  if (found instanceof OAuthFetchRefusedError) return fail(`${where}: ${found.message}`);
  if (found instanceof UnauthorizedError) return fail(`${where} requires sign-in`);
  if (found instanceof IssuerMismatchError) {
    return fail(
      found.kind === 'metadata'
        ? `${where}: the authorization server's metadata names a different issuer than ${found.expected ?? 'expected'}; sign-in refused`
        : `${where}: the sign-in response did not come from the expected authorization server; refused`,
    );
  }
  if (found instanceof AuthorizationServerMismatchError) {
    return fail(`${where} now uses a different authorization server; sign in again`);
  }
  if (found instanceof RegistrationRejectedError) {
    return fail(
      `${where}: the authorization server refused to register this app (HTTP ${String(found.status)}); enter a client ID for it in the server's settings`,
    );
  }
  if (found instanceof InsecureTokenEndpointError) {
    return fail(`${where}: the authorization server's token endpoint is not https; sign-in refused`);
  }
  if (found instanceof InsufficientScopeError) {
    return fail(
      `${where} needs more permissions${safeScope(found.requiredScope)}; sign in again to grant them`,
    );
  }
  if (found instanceof OAuthError) {
    const code = safeCode(found.code);
    if (machine && code !== 'server_error' && code !== 'temporarily_unavailable') {
      // No sign-in expired here: the configured credentials or assertion were refused.
      return fail(
        `${where}: the authorization server refused this app's credentials (${code}); check the server's oauth settings`,
      );
    }
    if (code === 'invalid_grant') return fail(`${where}: the sign-in expired or was revoked; sign in again`);
    if (code === 'server_error' || code === 'temporarily_unavailable') {
      return fail(`${where}: the authorization server failed (${code}); try signing in again later`);
    }
    return fail(`${where}: the authorization server refused the sign-in (${code})`);
  }
  if (unreachable !== undefined)
    return fail(`${where}: cannot reach the authorization server ${unreachable}`);
  return fail(`${where}: sign-in failed: ${describeError(found)}`);
}

/** Whether `error` (or a cause of it) comes from the sign-in machinery (ServerAuthSession describes it). */
export function isAuthFailure(error: unknown): boolean {
  if (findAuthError(error) !== undefined) return true;
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current instanceof Error; depth++) {
    if (current instanceof RefreshDeferredError) return true;
    current = current.cause;
  }
  return false;
}

function findAuthError(error: unknown): unknown {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current instanceof Error; depth++) {
    if (current instanceof HostError && current.code === 'sign_in_required') return current;
    if (
      current instanceof SignInNeededError ||
      current instanceof OAuthFetchRefusedError ||
      current instanceof UnauthorizedError ||
      current instanceof OAuthClientFlowError ||
      current instanceof OAuthError
    ) {
      return current;
    }
    current = current.cause;
  }
  return undefined;
}

function safeCode(code: string): string {
  return /^[a-z_]{1,64}$/.test(code) ? code : 'error';
}

function safeScope(scope: string | undefined): string {
  if (scope === undefined || !/^[\x21-\x7E ]{1,200}$/.test(scope)) return '';
  return ` (${scope})`;
}
