// The gate in front of every request of a remote server's fetch: where an OAuth flow may go, and the log line for each URL it fetches.
import { OAuthFetchRefusedError, isLocalHost, originOf, shownUrl } from './oauth-network.js';
import type { Resolver } from './oauth-network.js';

/** A line for the server's log. */
export type AuthLog = (level: 'info' | 'warning', text: string) => void;

/** Where a flow is: nobody asked (a connect, a request), a sign-in the person started, or a sign-out. */
export type Phase = 'background' | 'sign-in' | 'sign-out';

export interface OAuthGateOptions {
  /** How host names are resolved for the private-address rule; default the system's. */
  resolve?: Resolver | undefined;
  log: AuthLog;
  /** The server's URL (expanded) of the last prepare. */
  target: () => string | undefined;
  /** A machine grant: no person to press Sign in, so its flow may leave the server's origin at connect. */
  isMachine: () => boolean;
  /** Origins a background flow may reach besides the server's own (those of the held sign-in). */
  backgroundOrigins: () => readonly string[];
  /** Endpoints of the cached authorization-server metadata. */
  knownEndpoints: () => string[];
}

/**
 * The MCP server's own requests pass; each OAuth request is written to the
 * log (origin and path only) and refused where the flow may not go: before
 * the person presses Sign in, anywhere but the server's origin and the held
 * sign-in's; a private, loopback or link-local address only when the server
 * itself is on one.
 */
export class OAuthGate {
  phase: Phase = 'background';
  /** Origins the running sign-in reached. */
  readonly signInOrigins = new Set<string>();
  /** The last URL the running sign-in was not allowed to fetch (the SDK may swallow the error). */
  private refusal: OAuthFetchRefusedError | undefined;
  /** Whether the MCP server itself is on a private, loopback or link-local address, per resource. */
  private resourceLocal: { resource: string; local: Promise<boolean> } | undefined;

  constructor(private readonly options: OAuthGateOptions) {}

  /** A sign-in the person started begins: nothing reached or refused yet. */
  startSignIn(): void {
    this.phase = 'sign-in';
    this.signInOrigins.clear();
    this.refusal = undefined;
  }

  /** The URL the running sign-in was refused last (read through a call: it is set from inside the fetch). */
  lastRefusal(): OAuthFetchRefusedError | undefined {
    return this.refusal;
  }

  /** Called before each request of the server's fetch; throws to refuse it. */
  async admit(url: string, method: string): Promise<void> {
    const resource = this.options.target();
    const origin = originOf(url);
    const resourceOrigin = resource !== undefined ? originOf(resource) : undefined;
    if (origin === undefined || resourceOrigin === undefined) return;
    if (!this.isOAuthRequest(url, origin, resourceOrigin)) return;
    const refuse = (refusal: OAuthFetchRefusedError['refusal']): never => {
      const error = new OAuthFetchRefusedError(refusal, url);
      if (this.phase !== 'background') this.refusal ??= error;
      throw error;
    };
    const host = new URL(url).host;
    if (this.phase === 'background' && !this.options.isMachine() && origin !== resourceOrigin) {
      // Before the person presses Sign in: the MCP server's own origin only, or the sign-in already made.
      if (!this.options.backgroundOrigins().includes(origin)) refuse({ kind: 'before-sign-in', host });
    }
    if (origin !== resourceOrigin && resource !== undefined) {
      const local = await isLocalHost(new URL(url).hostname, this.options.resolve).catch(() => undefined);
      if (local === undefined) refuse({ kind: 'unresolvable', host });
      if (local === true && !(await this.isResourceLocal(resource)))
        refuse({ kind: 'private-address', host });
    }
    if (this.phase === 'sign-in') this.signInOrigins.add(origin);
    this.options.log('info', `OAuth: ${method.toUpperCase()} ${shownUrl(url)}`);
  }

  /** An OAuth request, not the MCP server's own traffic: another origin, a well-known document, or a known endpoint. */
  private isOAuthRequest(url: string, origin: string, resourceOrigin: string): boolean {
    if (origin !== resourceOrigin || this.phase === 'sign-out') return true;
    const { pathname } = new URL(url);
    if (pathname.startsWith('/.well-known/')) return true;
    const plain = `${origin}${pathname}`;
    return this.options.knownEndpoints().some((endpoint) => shownUrl(endpoint) === plain);
  }

  private isResourceLocal(resource: string): Promise<boolean> {
    if (this.resourceLocal?.resource !== resource) {
      const local = isLocalHost(new URL(resource).hostname, this.options.resolve).catch(() => false);
      this.resourceLocal = { resource, local };
    }
    return this.resourceLocal.local;
  }
}
