// The checks of a browser sign-in the person started: its state, its discovery (PKCE S256, the issuer) and its authorization URL.
import { randomBytes } from 'node:crypto';
import { discoverOAuthServerInfo } from '@modelcontextprotocol/client';
import type { FetchLike, OAuthDiscoveryState } from '@modelcontextprotocol/client';
import { HostError } from '../../../errors.js';
import { hostOf, originOf } from './oauth-network.js';

/** A fresh `state` for one authorization request (RFC 6749 §10.12). */
export function newState(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The authorization URL is where we send the person: it must be https (or a
 * loopback address, for local servers) and must bring them back to our own
 * loopback listener, nowhere else.
 */
export function checkAuthorizationUrl(url: URL, redirectUrl: string, serverName: string): void {
  const loopback = url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new HostError(
      'sign_in_required',
      `Sign-in to "${serverName}" refused: the authorization page ${url.origin} is not https`,
    );
  }
  if (url.searchParams.get('redirect_uri') !== redirectUrl) {
    throw new HostError(
      'sign_in_required',
      `Sign-in to "${serverName}" refused: the authorization request would not return to this app's loopback address`,
    );
  }
}

/** Step-up authorizations (more scope) allowed per server within STEP_UP_WINDOW_MS, across requests. */
export const STEP_UP_LIMIT = 3;
export const STEP_UP_WINDOW_MS = 10 * 60_000;

/** Counts step-up sign-ins: a server that keeps asking for more permissions is refused for a while. */
export class StepUpLimit {
  private readonly times: number[] = [];

  /** One more step-up asking for `scope`; throws (one line) past the limit. */
  count(serverName: string, scope: string | null): void {
    const now = Date.now();
    while (this.times.length > 0 && (this.times[0] ?? 0) < now - STEP_UP_WINDOW_MS) this.times.shift();
    if (this.times.length >= STEP_UP_LIMIT) {
      throw new HostError(
        'sign_in_required',
        `Server "${serverName}" keeps asking for more permissions${scope ? ` (${scope})` : ''} after ${String(STEP_UP_LIMIT)} sign-ins; not asking again for now`,
      );
    }
    this.times.push(now);
  }
}

/** What the discovery check needs of the provider. */
export interface DiscoveryTarget {
  invalidateCredentials(scope: 'discovery'): Promise<void>;
  /** Throws (one line) when the sign-in may not go to `issuer`. */
  acceptIssuer(issuer: string): void;
  saveDiscoveryState(state: OAuthDiscoveryState): Promise<void>;
}

/**
 * The discovery of a sign-in the person started, checked before anything
 * is registered or opened: the authorization server must offer PKCE with
 * S256 (an absent `code_challenge_methods_supported` counts as no PKCE, as
 * the MCP specification says; a server with no metadata at all gets the
 * 2025-03-26 default endpoints on its own origin, with an S256 challenge),
 * and must be the issuer the entry is pinned or bound to. The checked
 * discovery is what the SDK then uses. `refused`: the URL the gate refused
 * during the discovery, if any (the SDK may swallow that error).
 */
export async function discoverForSignIn(options: {
  serverName: string;
  provider: DiscoveryTarget;
  resource: string;
  resourceMetadataUrl: URL | undefined;
  fetchFn: FetchLike;
  refused: () => Error | undefined;
}): Promise<void> {
  const { provider, resource, resourceMetadataUrl, fetchFn } = options;
  await provider.invalidateCredentials('discovery');
  const info = await discoverOAuthServerInfo(resource, { fetchFn, resourceMetadataUrl });
  const refused = options.refused();
  if (refused) throw refused;
  const metadata = info.authorizationServerMetadata;
  const where = `Server "${options.serverName}"`;
  if (metadata === undefined) {
    // No metadata at all: the 2025-03-26 default endpoints (/authorize, /token, /register) on the
    // server's own origin, where the SDK always sends an S256 challenge. Nothing to pin a client to
    // but that origin.
    if (originOf(info.authorizationServerUrl) !== originOf(resource)) {
      throw new HostError(
        'sign_in_required',
        `${where}: no authorization server metadata at ${hostOf(info.authorizationServerUrl)}; sign-in refused`,
      );
    }
    provider.acceptIssuer(info.authorizationServerUrl);
    return;
  }
  const methods = metadata.code_challenge_methods_supported;
  if (!Array.isArray(methods) || !methods.includes('S256')) {
    throw new HostError(
      'sign_in_required',
      `${where}: the authorization server ${hostOf(metadata.issuer)} does not advertise PKCE with S256 (code_challenge_methods_supported); sign-in refused`,
    );
  }
  provider.acceptIssuer(metadata.issuer);
  await provider.saveDiscoveryState({
    authorizationServerUrl: info.authorizationServerUrl,
    ...(resourceMetadataUrl !== undefined ? { resourceMetadataUrl: resourceMetadataUrl.href } : {}),
    resourceMetadata: info.resourceMetadata,
    authorizationServerMetadata: metadata,
  });
}
