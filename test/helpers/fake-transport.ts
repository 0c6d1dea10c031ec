import { InMemoryTransport } from '@modelcontextprotocol/client';
import type { Client } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import type { TransportEntry } from '../../shared/model/config.js';
import type { ServerAuth } from '../../shared/model/server.js';
import { HostError } from '../../electron/host/errors.js';
import type { SignOutOutcome } from '../../electron/host/servers/http/auth/revocation.js';
import type {
  ConnectAttempt,
  ServerTransport,
  SessionEnding,
  SignInControl,
  SignInSession,
  TransportFacts,
  TransportFactory,
  TransportSession,
} from '../../electron/host/servers/transport/server-transport.js';

/**
 * What the next connect of a FakeTransport does:
 * - `serve`: a real in-process MCP server (v2 server SDK) with these tools,
 *   over an in-memory link; `refuseModern` makes the first try (the one
 *   that may probe the 2026-07-28 era) fail, as a server that only speaks the
 *   2025 era over HTTP+SSE does, so the transport tries again 'legacy-only';
 * - `fail`: rejects with this error, having started nothing;
 * - `hang`: waits until `release()`, then serves.
 */
export type FakeStep =
  | { kind: 'serve'; tools?: readonly string[]; refuseModern?: boolean }
  | { kind: 'fail'; error: unknown }
  | { kind: 'hang'; tools?: readonly string[] };

/** A failure only this fake's sign-in recognises. */
export class FakeUnauthorized extends Error {}

/** A live fake session: its client, its in-process server, and a way to end it as a crash would. */
export interface FakeSession extends TransportSession {
  readonly server: McpServer;
  /** The server goes away by itself (as a process exits). */
  crash(lastWords: string): void;
  closedWith: boolean | undefined;
}

/**
 * A ServerTransport without processes or sockets: each connect follows the
 * next step of its script. It lets the lifecycle be tested on its own
 * (connect, timeouts, crashes, stop while starting, sign-in, era fallback).
 */
export class FakeTransport implements ServerTransport {
  readonly kind = 'stdio';
  readonly sessions: FakeSession[] = [];
  readonly attempts: ConnectAttempt[] = [];
  /** How many times an attempt in progress was abandoned. */
  abandoned = 0;
  readonly signIn: SignInControl | undefined;
  readonly auth = new FakeSignIn();
  private release: (() => void) | undefined;

  constructor(
    private readonly steps: FakeStep[],
    withSignIn = false,
  ) {
    this.signIn = withSignIn
      ? { prepared: () => Promise.resolve(this.auth), current: () => this.auth }
      : undefined;
  }

  /** A factory handing out this one transport, for ConnectionOptions.transportFactory. */
  get factory(): TransportFactory {
    return () => this;
  }

  reconfigure(entry: TransportEntry): boolean {
    return entry.kind === 'stdio';
  }

  facts(): TransportFacts {
    return {};
  }

  signInFailure(error: unknown): HostError | undefined {
    return error instanceof FakeUnauthorized
      ? new HostError('sign_in_required', 'Sign-in required: the server refused the token')
      : undefined;
  }

  /** Lets a `hang` step go on. */
  releaseHang(): void {
    this.release?.();
  }

  async connect(attempt: ConnectAttempt): Promise<TransportSession> {
    this.attempts.push(attempt);
    const step = this.steps.shift() ?? { kind: 'serve' };
    if (step.kind === 'fail') throw step.error;
    if (step.kind === 'hang') {
      await new Promise<void>((resolve) => {
        this.release = resolve;
      });
    }
    const tools = step.tools ?? ['echo'];
    if (step.kind === 'serve' && step.refuseModern === true) {
      // First try, era open: refused before any handshake, as a 404 on the POST would be.
      attempt.newClient(undefined, 1000);
      const client = attempt.newClient('legacy-only', 1000);
      return this.serve(client, tools, attempt);
    }
    return this.serve(attempt.newClient(undefined, 1000), tools, attempt);
  }

  abandon(): Promise<void> {
    this.abandoned++;
    return Promise.resolve();
  }

  private async serve(
    client: Client,
    tools: readonly string[],
    attempt: ConnectAttempt,
  ): Promise<FakeSession> {
    const server = new McpServer({ name: 'fake-server', version: '1.2.3' }, { capabilities: { tools: {} } });
    for (const name of tools) {
      server.registerTool(name, { description: `The ${name} tool` }, () => ({
        content: [{ type: 'text', text: name }],
      }));
    }
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    await client.connect(clientSide);
    await attempt.loadCatalog(client);
    let ended: SessionEnding | undefined;
    const session: FakeSession = {
      client,
      server,
      closedWith: undefined,
      onEnded: undefined,
      ending: () => ended,
      close: async (failed) => {
        session.closedWith = failed;
        await client.close().catch(() => undefined);
        await server.close().catch(() => undefined);
      },
      crash: (lastWords) => {
        ended = { status: { code: 1, signal: null }, lastWords };
        session.onEnded?.(`Server "fake" exited with code 1 unexpectedly. ${lastWords}`);
      },
    };
    this.sessions.push(session);
    return session;
  }
}

/** A sign-in that records what the lifecycle told it. */
export class FakeSignIn implements SignInSession {
  required: string | undefined;
  signInCalls = 0;
  /** How the next sign-in ends. */
  outcome: 'ok' | Error = 'ok';

  describe(): ServerAuth | undefined {
    return undefined;
  }

  markRequired(failure: HostError): void {
    this.required = failure.message;
  }

  clearRequired(): void {
    this.required = undefined;
  }

  signIn(opened: () => void): Promise<void> {
    this.signInCalls++;
    opened();
    return this.outcome === 'ok' ? Promise.resolve() : Promise.reject(this.outcome);
  }

  cancel(): void {
    this.required ??= 'Sign-in cancelled';
  }

  signOut(): Promise<SignOutOutcome> {
    return Promise.resolve({ kind: 'revoked' });
  }
}
