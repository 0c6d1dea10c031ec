import type { Client, PriorDiscovery } from '@modelcontextprotocol/client';
import type { TransportEntry, TransportKind } from '../../../../shared/model/config.js';
import type { ServerAuth, ServerSnapshot, ServerStatus } from '../../../../shared/model/server.js';
import type { LogLevel } from '../../../../shared/model/logs.js';
import type { HostError } from '../../errors.js';
import type { SignOutOutcome } from '../http/auth/revocation.js';
import type { ServerOutput } from '../lifecycle/server-output.js';
import type { ConnectionOptions } from '../connection-options.js';

/**
 * The seam between a server's lifecycle (lifecycle/connection-lifecycle.ts)
 * and the ways of reaching a server: a local process over stdio (stdio/) or
 * a remote one over Streamable HTTP with its HTTP+SSE fallback and OAuth
 * (http/). The lifecycle starts, watches, restarts and stops; a transport
 * connects, hands back a session and ends it. Everything that belongs to
 * one transport only (process groups, login environment, era verdicts,
 * fetch wrappers, sign-in) stays behind this interface.
 */
export interface ServerTransport {
  readonly kind: TransportKind;
  /** Takes the entry's new configuration for the next connect; false if it needs another transport. */
  reconfigure(entry: TransportEntry): boolean;
  /**
   * Reaches the server and completes the handshake and the first listing.
   * Rejects with one clear line; whatever the attempt started is ended
   * before it rejects.
   */
  connect(attempt: ConnectAttempt): Promise<TransportSession>;
  /** Ends what an attempt still in progress has started (the server was stopped while starting). */
  abandon(): Promise<void>;
  /** What the server view shows of this transport, for a server in `status`. */
  facts(status: ServerStatus): TransportFacts;
  /** A failure that waits for the person to sign in, worded; undefined for any other failure. */
  signInFailure(error: unknown): HostError | undefined;
  /** OAuth sign-in of a remote server; undefined where there is none. */
  readonly signIn: SignInControl | undefined;
  /**
   * What the OS sandbox blocked at or after `at` (performance.now() clock),
   * distinct, oldest first; undefined when the server is not watched (not sandboxed).
   */
  blockedSince?(at: number): string[] | undefined;
}

/** What a lifecycle offers a transport for one connect attempt. */
export interface ConnectAttempt {
  readonly server: string;
  /** The time the whole handshake may take, in ms. */
  readonly connectTimeoutMs: number;
  readonly output: ServerOutput;
  /** A fresh SDK client (with its own catalog) for one try. */
  newClient(negotiation: PriorDiscovery | 'legacy-only' | undefined, probeTimeoutMs: number): Client;
  /** The first listing of tools, resources and prompts on a connected client. */
  loadCatalog(client: Client): Promise<void>;
  /** False once the attempt was called off (stopped or started again). */
  isCurrent(): boolean;
  /** Something the server view shows changed (a process was started). */
  changed(): void;
  log(level: LogLevel, text: string): void;
  /** Words a failed request or handshake as one line naming the server. */
  describeFailure(error: unknown, what: string, ending?: SessionEnding): HostError;
}

/** How a session ended by itself: a process's exit status and its last words. */
export interface SessionEnding {
  readonly status: { code: number | null; signal: NodeJS.Signals | null };
  readonly lastWords: string;
}

/** One live connection to a server. */
export interface TransportSession {
  readonly client: Client;
  /** Set if the session has ended by itself (its process exited). */
  ending(): SessionEnding | undefined;
  /** Called once if the session ends by itself while in use, with the reason worded. */
  onEnded: ((reason: string) => void) | undefined;
  /** Ends the session; `failed` skips the polite steps. */
  close(failed: boolean): Promise<void>;
}

/** What a transport reports outside any one attempt (a remote server's OAuth session lives longer). */
export interface TransportEvents {
  changed(): void;
  log(level: LogLevel, text: string): void;
}

/** Snapshot fields a transport contributes. */
export type TransportFacts = Pick<
  ServerSnapshot,
  'pid' | 'priority' | 'httpTransport' | 'launcher' | 'bundle' | 'runtime' | 'sandbox'
>;

/** A remote server's OAuth session, prepared for its current configuration. */
export interface SignInControl {
  /** The session, created and prepared for the entry as it is now (a sign-in may come before any connect). */
  prepared(): Promise<SignInSession>;
  /** The session if one was created, without preparing it. */
  current(): SignInSession | undefined;
}

/** What the lifecycle and the server view ask of a sign-in (http/auth/server-auth.ts has the whole of it). */
export interface SignInSession {
  /** The server view's auth state; undefined for a server that never asked for OAuth. */
  describe(): ServerAuth | undefined;
  /** The server needs a sign-in: `failure` says why. */
  markRequired(failure: HostError): void;
  clearRequired(): void;
  /** The browser sign-in; `opened` is called once the page is open. */
  signIn(opened: () => void): Promise<void>;
  /** Stops waiting for the browser. */
  cancel(): void;
  /** Revokes and forgets the tokens; resolves with how that ended (auth/revocation.ts `describeSignOut` has its line). */
  signOut(): Promise<SignOutOutcome>;
}

/** Makes the transport for an entry (transport/create-transport.ts, or a fake one in tests). */
export type TransportFactory = (
  name: string,
  entry: TransportEntry,
  options: ConnectionOptions,
  events: TransportEvents,
) => ServerTransport;
