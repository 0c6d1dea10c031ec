// When a refresh that failed in passing (network, 5xx) may be tried again, and which failures are passing ones.
import { OAuthError } from '@modelcontextprotocol/client';
import type { RefreshOutcome } from './oauth-fetch.js';
import { RefreshDeferredError } from './sign-in-state.js';

/** Backoff after a refresh that failed for a passing reason (network, 5xx): 2 s, 4 s, … up to 5 min. */
const REFRESH_RETRY_FIRST_MS = 2000;
const REFRESH_RETRY_MAX_MS = 5 * 60_000;
/**
 * OAuth errors of a refresh that are worth trying again; any other error
 * code (invalid_grant, invalid_client, unauthorized_client, invalid_scope…)
 * is a definitive refusal and the tokens go (RFC 6749 §5.2).
 */
const PASSING_OAUTH_ERRORS: ReadonlySet<string> = new Set(['server_error', 'temporarily_unavailable']);

/** Refreshes that failed for a passing reason in a row, and when the next may be tried. */
export class RefreshBackoff {
  private trouble: { failures: number; retryAt: number } | undefined;

  /** How the last refresh-token request ended (oauth-fetch.ts): a passing failure backs off. */
  record(outcome: RefreshOutcome): void {
    if (outcome !== 'transient') {
      this.trouble = undefined;
      return;
    }
    const failures = (this.trouble?.failures ?? 0) + 1;
    const delay = Math.min(REFRESH_RETRY_MAX_MS, REFRESH_RETRY_FIRST_MS * 2 ** (failures - 1));
    this.trouble = { failures, retryAt: Date.now() + delay };
  }

  reset(): void {
    this.trouble = undefined;
  }

  /** An opaque mark of the current trouble: a different one after `record('transient')`. */
  get mark(): object | undefined {
    return this.trouble;
  }

  /** Whether a refresh is backing off now. */
  waiting(): boolean {
    return this.trouble !== undefined && Date.now() < this.trouble.retryAt;
  }

  /** Seconds until the next try, when a passing failure happened; undefined otherwise. */
  retryInSeconds(): number | undefined {
    if (this.trouble === undefined) return undefined;
    return Math.max(1, Math.ceil((this.trouble.retryAt - Date.now()) / 1000));
  }
}

/** Refresh this long before the access token expires, so no request meets an expired token. */
export const REFRESH_MARGIN_MS = 60_000;

/** What the refresher needs of the provider. */
export interface RefreshHooks {
  /** When the held access token expires, when there is a refresh token to renew it with. */
  expiresAt(): number | undefined;
  hasTokens(): boolean;
  /** One refresh (the SDK's flow); throws when it did not renew. */
  refresh(): Promise<void>;
  /** The refresh was refused for good: the sign-in ends. */
  refused(error: unknown): Promise<void>;
}

/**
 * Renews the access token shortly before it expires: one refresh in
 * flight however many requests are waiting for it. A refresh the
 * authorization server refuses leaves no tokens, so the request goes out
 * without one and the server's 401 ends in "Sign-in required"; one that
 * fails in passing keeps them and backs off.
 */
export class TokenRefresher {
  readonly backoff = new RefreshBackoff();
  private refreshing: Promise<void> | undefined;

  constructor(private readonly hooks: RefreshHooks) {}

  async refreshIfExpiring(): Promise<void> {
    const expiresAt = this.hooks.expiresAt();
    if (expiresAt === undefined || expiresAt - Date.now() > REFRESH_MARGIN_MS) return;
    // Backing off after a passing failure: the held token goes out as it is (it may still be taken).
    if (this.backoff.waiting()) return;
    this.refreshing ??= (async () => {
      const troubleBefore = this.backoff.mark;
      try {
        await this.hooks.refresh();
      } catch (error) {
        // Only a definitive refusal ends the sign-in; a network blip or a 5xx keeps the tokens.
        const failedInPassing = this.backoff.mark !== undefined && this.backoff.mark !== troubleBefore;
        if (this.hooks.hasTokens() && (failedInPassing || isPassingFailure(error))) {
          if (!failedInPassing) this.backoff.record('transient');
          return;
        }
        await this.hooks.refused(error);
      } finally {
        this.refreshing = undefined;
      }
    })();
    await this.refreshing;
  }
}

/** A failure worth trying again (the network, a timeout, an authorization server error), not a refusal. */
export function isPassingFailure(error: unknown): boolean {
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
