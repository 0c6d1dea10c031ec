import { extractWWWAuthenticateParams } from '@modelcontextprotocol/client';
import type { FetchLike } from '@modelcontextprotocol/client';

/**
 * The fetch under a signed-in server's transport and its OAuth requests,
 * adding what the SDK leaves to the host:
 *
 * - one refresh in flight: refresh-token requests for the same token are
 *   shared, so a burst of requests meeting an expired token costs one
 *   refresh (and a rotating refresh token is not spent twice, which the
 *   authorization server would take for a replay and revoke);
 * - the last challenge (`WWW-Authenticate` of a 401 or 403: the resource
 *   metadata URL and scope), which a sign-in the person starts later uses;
 * - a 401 to a request that carried our token (the token was refused: the
 *   server may have moved to another authorization server);
 * - the host of a failed request, so "cannot reach" names the right machine;
 * - a gate before every request (`admit`: where the flow may go, and the
 *   log line for each URL it fetches);
 * - how each refresh ended, so a network blip or a 5xx keeps the tokens and
 *   only a definitive refusal drops them.
 */

/** How a refresh-token request ended: renewed, refused for good (a 4xx), or worth retrying (network, 5xx, 429). */
export type RefreshOutcome = 'renewed' | 'refused' | 'transient';

export interface Challenge {
  resourceMetadataUrl?: URL | undefined;
  scope?: string | undefined;
  /** `insufficient_scope` for a step-up (403). */
  error?: string | undefined;
}

export interface OAuthFetchHooks {
  onChallenge(challenge: Challenge): void;
  onTokenRefused(): Promise<void>;
  onUnreachable(host: string): void;
  /** Called before each request; throws to refuse it. */
  admit?(url: string, method: string): Promise<void>;
  onRefreshOutcome?(outcome: RefreshOutcome): void;
}

export function oauthFetch(base: FetchLike, hooks: OAuthFetchHooks): FetchLike {
  const refreshes = new Map<
    string,
    Promise<{ status: number; statusText: string; headers: Headers; body: string }>
  >();
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input.href;
    const refreshToken = refreshTokenOf(init);
    if (refreshToken !== undefined) {
      let shared = refreshes.get(refreshToken);
      if (!shared) {
        shared = (async () => {
          let response: Response;
          try {
            response = await send(base, url, input, init, hooks);
          } catch (error) {
            hooks.onRefreshOutcome?.('transient');
            throw error;
          }
          hooks.onRefreshOutcome?.(refreshOutcome(response.status));
          return {
            status: response.status,
            statusText: response.statusText,
            headers: response.headers,
            body: await response.text(),
          };
        })();
        refreshes.set(refreshToken, shared);
        // A renewal is kept for a moment after it settles, for requests that read the old token just
        // before; a failure is not, so the next try really asks again.
        const forget = () => refreshes.delete(refreshToken);
        void shared.then((answer) => {
          if (answer.status >= 200 && answer.status < 300) setTimeout(forget, 5000).unref();
          else forget();
        }, forget);
      }
      const answer = await shared;
      return new Response(answer.body, {
        status: answer.status,
        statusText: answer.statusText,
        headers: answer.headers,
      });
    }
    const response = await send(base, url, input, init, hooks);
    if (response.status === 401 || response.status === 403) {
      const params = extractWWWAuthenticateParams(response);
      if (
        params.resourceMetadataUrl !== undefined ||
        params.scope !== undefined ||
        params.error !== undefined
      ) {
        hooks.onChallenge({
          resourceMetadataUrl: params.resourceMetadataUrl,
          scope: params.scope,
          error: params.error,
        });
      }
      if (response.status === 401 && hasBearer(init)) await hooks.onTokenRefused();
    }
    return response;
  };
}

async function send(
  base: FetchLike,
  url: string,
  input: Parameters<FetchLike>[0],
  init: Parameters<FetchLike>[1],
  hooks: OAuthFetchHooks,
): Promise<Response> {
  await hooks.admit?.(url, init?.method ?? 'GET');
  try {
    return await base(input, init);
  } catch (error) {
    try {
      hooks.onUnreachable(new URL(url).host);
    } catch {
      // Not a URL we can name.
    }
    throw error;
  }
}

function refreshOutcome(status: number): RefreshOutcome {
  if (status >= 200 && status < 300) return 'renewed';
  if (status >= 500 || status === 429 || status === 408) return 'transient';
  return 'refused';
}

function refreshTokenOf(init: Parameters<FetchLike>[1]): string | undefined {
  const body = init?.body;
  let params: URLSearchParams | undefined;
  if (body instanceof URLSearchParams) params = body;
  else if (typeof body === 'string' && body.includes('grant_type=refresh_token'))
    params = new URLSearchParams(body);
  if (params?.get('grant_type') !== 'refresh_token') return undefined;
  return params.get('refresh_token') ?? undefined;
}

function hasBearer(init: Parameters<FetchLike>[1]): boolean {
  const value = new Headers(init?.headers).get('authorization');
  return value !== null && /^(bearer|dpop) /i.test(value);
}
