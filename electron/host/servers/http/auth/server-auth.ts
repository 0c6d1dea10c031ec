import { auth, computeScopeUnion } from '@modelcontextprotocol/client';
import type { FetchLike, OAuthClientProvider } from '@modelcontextprotocol/client';
import type { HttpServerConfig, OAuthConfig } from '../../../../../shared/model/config.js';
import type { ServerAuth } from '../../../../../shared/model/server.js';
import { HostError } from '../../../errors.js';
import { describeAuthFailure } from './auth-errors.js';
import { describeAuth } from './auth-view.js';
import { HostOAuthProvider } from './host-oauth-provider.js';
import { OAuthFetchRefusedError, hostOf } from './oauth-network.js';
import type { Resolver } from './oauth-network.js';
import { OAuthGate } from './oauth-gate.js';
import type { AuthLog } from './oauth-gate.js';
import { isMachineGrant, machineProvider } from './machine-providers.js';
import type { MachineGrant } from './machine-providers.js';
import { IssuerBoundMachineProvider } from './machine-binding.js';
import { startLoopbackRedirect } from './loopback-redirect.js';
import type { Challenge } from './oauth-fetch.js';
import { oauthFetch } from './oauth-fetch.js';
import type { OAuthStore } from './oauth-store.js';
import { revoke } from './revocation.js';
import type { RevocationPlan, SignOutOutcome } from './revocation.js';
import { discoverForSignIn, newState } from './sign-in-checks.js';
import { RefreshDeferredError, SignInStatus, signInLine } from './sign-in-state.js';
import type { SignInReason, SignInState } from './sign-in-state.js';

/** What the host gives every server's sign-in (one of each per host). */
export interface OAuthServices {
  store: OAuthStore;
  /** Opens an authorization page: the system browser (Platform.openExternal); the conformance client follows it itself. */
  openBrowser(url: string): Promise<void>;
  /** The app's Client ID Metadata Document URL (a setting); undefined: none. */
  clientMetadataUrl?: string | undefined;
  /** How long a sign-in waits for the browser to come back. Default 5 min. */
  signInTimeoutMs?: number | undefined;
  /** How host names are resolved for the private-address rule (tests); default the system's. */
  resolve?: Resolver | undefined;
}

export const DEFAULT_SIGN_IN_TIMEOUT_MS = 5 * 60_000;

/** What a connect attempt to a remote server needs for OAuth. */
export interface PreparedAuth {
  authProvider: OAuthClientProvider | undefined;
  fetch: FetchLike;
}

/**
 * The OAuth side of one remote server: builds the SDK's auth provider for
 * each connect, says what the server view shows, runs the browser sign-in
 * the person starts (loopback redirect, browser, code exchange), and signs
 * out (revocation, then forgetting). Its sign-in state is one SignInStatus
 * (sign-in-state.ts), shared with its HostOAuthProvider. Owned by its
 * ServerConnection.
 */
export class ServerAuthSession {
  private provider: HostOAuthProvider | undefined;
  private machine: { grant: MachineGrant; provider: IssuerBoundMachineProvider } | undefined;
  private config: HttpServerConfig | undefined;
  private resource: string | undefined;
  /** The server's URL (expanded) of the last prepare, whatever the grant. */
  private target: string | undefined;
  private env: Readonly<Record<string, string | undefined>> = {};
  /** The prepared fetch (oauth-fetch.ts over the transport's), also used by the sign-in's own requests. */
  private fetch: FetchLike = globalThis.fetch;
  private challenge: Challenge = {};
  private unreachable: string | undefined;
  private readonly status = new SignInStatus();
  private readonly gate: OAuthGate;

  constructor(
    private readonly serverName: string,
    private readonly services: OAuthServices,
    private readonly appVersion: string,
    private readonly onChange: () => void,
    log: AuthLog = () => undefined,
  ) {
    this.gate = new OAuthGate({
      resolve: services.resolve,
      log,
      target: () => this.target,
      isMachine: () => this.machine !== undefined,
      backgroundOrigins: () => this.provider?.backgroundOrigins() ?? [],
      knownEndpoints: () => this.provider?.knownEndpoints() ?? [],
    });
  }

  /**
   * The auth provider and fetch for one connect attempt. Nothing happens on
   * the network here; OAuth starts when the server answers 401.
   */
  async prepare(
    config: HttpServerConfig,
    resource: string,
    env: Readonly<Record<string, string | undefined>>,
    base: FetchLike,
  ): Promise<PreparedAuth> {
    this.config = config;
    this.target = resource;
    this.env = env;
    this.unreachable = undefined;
    const oauth: OAuthConfig = config.oauth ?? {};
    const fetch = oauthFetch(base, {
      onChallenge: (challenge) => {
        this.challenge = challenge;
        this.provider?.challenged(challenge);
      },
      onTokenRefused: () => this.provider?.tokenRefused() ?? Promise.resolve(),
      onUnreachable: (host) => {
        this.unreachable = host;
      },
      admit: (url, method) => this.gate.admit(url, method),
      onRefreshOutcome: (outcome) => {
        this.provider?.refreshOutcome(outcome);
      },
    });
    this.fetch = fetch;
    if (oauth.enabled === false) {
      this.provider = undefined;
      return { authProvider: undefined, fetch };
    }
    const grant = oauth.grant;
    if (isMachineGrant(grant)) {
      this.provider = undefined;
      this.machine ??= {
        grant,
        provider: await IssuerBoundMachineProvider.create(
          (issuer) =>
            machineProvider(this.serverName, grant, issuer !== undefined ? { ...oauth, issuer } : oauth, env),
          {
            serverName: this.serverName,
            resource,
            oauth,
            store: this.services.store,
            onChange: this.onChange,
          },
        ),
      };
      return { authProvider: this.machine.provider, fetch };
    }
    if (this.provider === undefined || this.resource !== resource) {
      this.resource = resource;
      this.provider = await HostOAuthProvider.create({
        serverName: this.serverName,
        resource,
        config: oauth,
        store: this.services.store,
        env,
        clientMetadataUrl: this.services.clientMetadataUrl,
        appVersion: this.appVersion,
        fetch,
        onChange: this.onChange,
        status: this.status,
      });
    }
    return { authProvider: this.provider, fetch };
  }

  /** The server view's auth state (auth-view.ts); undefined for a server that never asked for OAuth. */
  describe(): ServerAuth | undefined {
    const machine = this.machine
      ? { grant: this.machine.grant, issuer: this.machine.provider.boundIssuer() }
      : undefined;
    return describeAuth(this.status.state, this.provider?.describe(), machine);
  }

  /**
   * An error of a connect or request, as the one line to show when it is a
   * sign-in matter (the server then shows "Sign-in required"); undefined
   * otherwise.
   */
  signInFailure(error: unknown): HostError | undefined {
    const refused = causeOf(error, OAuthFetchRefusedError);
    if (refused?.refusal.kind === 'before-sign-in') {
      // A background flow stopped at the MCP server's own origin: the person has to start the sign-in.
      const url = refused.url;
      const at = /\/\.well-known\/(oauth-authorization-server|openid-configuration)/.test(url)
        ? hostOf(url)
        : undefined;
      // Why the held sign-in ended (a refused refresh), when that is what brought the flow here.
      const reason: SignInReason = this.provider?.signInReason ?? { code: 'not-signed-in', host: at };
      return new HostError('sign_in_required', signInLine(reason));
    }
    if (refused) return new HostError('sign_in_required', `Server "${this.serverName}": ${refused.message}`);
    // A refresh that failed in passing keeps the sign-in: an ordinary failure, retried.
    if (causeOf(error, RefreshDeferredError)) return undefined;
    return (
      describeAuthFailure(this.serverName, error, this.unreachable, this.machine !== undefined) ??
      this.unreachableAuthorizationServer()
    );
  }

  /**
   * A connect that failed because a machine other than the server itself
   * could not be reached: the authorization server (discovery or token
   * requests go there), so the server waits for a sign-in that can work.
   */
  private unreachableAuthorizationServer(): HostError | undefined {
    const host = this.unreachable;
    if (host === undefined || this.resource === undefined || new URL(this.resource).host === host)
      return undefined;
    return new HostError(
      'sign_in_required',
      `Server "${this.serverName}": cannot reach the authorization server ${host}`,
    );
  }

  /** The server needs a sign-in: `failure` (from `signInFailure`) says why. */
  markRequired(failure: HostError): void {
    this.status.require({ code: 'failed', failure });
  }

  clearRequired(): void {
    this.status.clear();
  }

  /**
   * The browser sign-in: a loopback listener, the authorization page in the
   * browser, then the code exchanged for tokens. `opened` is called once the
   * browser was asked to open. Resolves when tokens are held; rejects with
   * one line (HostError) otherwise.
   */
  async signIn(opened: () => void): Promise<void> {
    if (isMachineGrant(this.config?.oauth?.grant)) {
      // No person and no browser: signing in again is asking for a token again, at the next connect.
      this.machine = undefined;
      this.status.state = { kind: 'idle' };
      opened();
      return;
    }
    const provider = this.provider;
    const resource = this.resource;
    if (!provider || resource === undefined) {
      throw new HostError('sign_in_required', `Server "${this.serverName}" does not use a browser sign-in`);
    }
    if (this.status.state.kind === 'signing-in')
      throw new HostError('conflict', `A sign-in to "${this.serverName}" is already waiting`);
    const timeoutMs = this.services.signInTimeoutMs ?? DEFAULT_SIGN_IN_TIMEOUT_MS;
    const state = newState();
    const loopback = await startLoopbackRedirect({
      state,
      timeoutMs,
      preferredPort: provider.registeredPort(),
      serverName: this.serverName,
    });
    const signingIn: Extract<SignInState, { kind: 'signing-in' }> = {
      kind: 'signing-in',
      until: Date.now() + timeoutMs,
      cancel: (reason) => {
        loopback.cancel(reason);
      },
    };
    this.status.state = signingIn;
    this.unreachable = undefined;
    const fetchFn = this.fetch;
    // A step-up asks for what the server challenged plus what was granted before (SEP-2350).
    const wanted = this.config?.oauth?.scopes?.join(' ') ?? this.challenge.scope;
    const scope =
      this.challenge.error === 'insufficient_scope'
        ? computeScopeUnion(provider.grantedScope(), wanted)
        : wanted;
    const options = {
      serverUrl: resource,
      fetchFn,
      ...(this.challenge.resourceMetadataUrl !== undefined
        ? { resourceMetadataUrl: this.challenge.resourceMetadataUrl }
        : {}),
      ...(scope !== undefined && scope !== '' ? { scope } : {}),
    };
    this.onChange();
    this.gate.startSignIn();
    try {
      await provider.beginInteractive({
        redirectUrl: loopback.redirectUrl,
        port: loopback.port,
        state,
        open: async (url) => {
          signingIn.authorizationUrl = url;
          try {
            await this.services.openBrowser(url);
          } catch {
            // No browser could be started (a headless machine): the page offers the link instead.
          }
          this.onChange();
          opened();
        },
      });
      await discoverForSignIn({
        serverName: this.serverName,
        provider,
        resource,
        resourceMetadataUrl: options.resourceMetadataUrl,
        fetchFn: this.fetch,
        refused: () => this.gate.lastRefusal(),
      });
      const first = await auth(provider, { ...options, forceReauthorization: true });
      if (first !== 'AUTHORIZED') {
        const params = await loopback.callback;
        const code = params.get('code') ?? '';
        const iss = params.get('iss') ?? undefined;
        await auth(provider, { ...options, authorizationCode: code, ...(iss !== undefined ? { iss } : {}) });
      }
      await provider.trustOrigins([...this.gate.signInOrigins]);
      this.status.state = { kind: 'idle' };
    } catch (error) {
      const refused = this.gate.lastRefusal();
      const failure =
        (refused !== undefined
          ? new HostError('sign_in_required', `Server "${this.serverName}": ${refused.message}`)
          : undefined) ??
        this.signInFailure(error) ??
        new HostError('sign_in_required', String(error));
      this.status.state = { kind: 'required', reason: { code: 'failed', failure } };
      throw failure;
    } finally {
      this.gate.phase = 'background';
      provider.endInteractive();
      loopback.cancel(new HostError('cancelled', 'Sign-in ended'));
      if (this.status.state === signingIn) this.status.state = { kind: 'idle' };
      this.onChange();
    }
  }

  /** Stops waiting for the browser. */
  cancel(): void {
    if (this.status.state.kind === 'signing-in')
      this.status.state.cancel(new HostError('cancelled', `Sign-in to "${this.serverName}" was cancelled`));
  }

  /**
   * Revokes the refresh token (or the access token) at the issuer that
   * issued it (revocation.ts), then forgets everything; the server then
   * needs a sign-in. The tokens are forgotten either way; the outcome says
   * whether they were revoked, and if not, why (`describeSignOut`). A
   * machine grant's binding to its issuer is kept.
   */
  async signOut(): Promise<SignOutOutcome> {
    const provider = this.provider;
    let outcome: SignOutOutcome = { kind: 'nothing-held' };
    this.gate.phase = 'sign-out';
    try {
      const plan: RevocationPlan = provider
        ? await provider.revocationPlan(this.fetch)
        : { kind: 'nothing-held' };
      if (plan.kind === 'skip') outcome = { kind: 'skipped', reason: plan.reason, issuer: plan.issuer };
      else if (plan.kind === 'revoke') outcome = await revoke(plan, this.fetch);
    } finally {
      this.gate.phase = 'background';
    }
    await provider?.forget();
    this.machine = undefined;
    this.status.state = { kind: 'required', reason: { code: 'signed-out', outcome } };
    return outcome;
  }
}

/** The first error of type `type` in `error`'s cause chain. */
function causeOf<T extends Error>(error: unknown, type: abstract new (...args: never[]) => T): T | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    if (current instanceof type) return current;
    current = current.cause;
  }
  return undefined;
}
