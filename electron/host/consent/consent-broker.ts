import { randomBytes } from 'node:crypto';
import { consentKinds } from '../../../shared/model/consent.js';
import type {
  ConsentAnswer,
  ConsentKind,
  ConsentOutcome,
  ConsentPrompt,
  ConsentRequest,
} from '../../../shared/model/consent.js';
import { HostError } from '../errors.js';

export interface ConsentBrokerOptions {
  /** A request was issued: show it. */
  onRequested: (request: ConsentRequest) => void;
  /** A request left the pending set, answered or withdrawn: hide it. */
  onResolved: (id: string, outcome: ConsentOutcome) => void;
  /** How many resolved ids to remember, to tell "already answered" from "never issued". Default 1,000. */
  rememberResolved?: number;
}

interface Pending {
  request: ConsentRequest;
  settle: (answer: unknown) => void;
  fail: (error: HostError) => void;
}

/**
 * The one place where decisions that need a person wait. The host asks; the
 * renderer answers through `answerConsent`. Nothing else can resolve a
 * request: ids are 128-bit random values issued here, each answerable once,
 * and an answer must match its kind's schema. A caller's abort signal (the
 * model turn was stopped, the server cancelled its request, the server went
 * away) withdraws the request.
 */
export class ConsentBroker {
  private readonly pendingById = new Map<string, Pending>();
  /** Recently resolved ids, oldest first, so a replay gets a precise refusal. */
  private readonly resolved = new Map<string, ConsentOutcome>();
  private readonly rememberResolved: number;

  constructor(private readonly options: ConsentBrokerOptions) {
    this.rememberResolved = options.rememberResolved ?? 1000;
  }

  /**
   * Asks the person. Resolves with their (schema-checked) answer; rejects
   * with a `cancelled` HostError when `signal` aborts first.
   */
  ask<K extends ConsentKind>(
    kind: K,
    server: string,
    prompt: ConsentPrompt<K>,
    signal?: AbortSignal,
  ): Promise<ConsentAnswer<K>> {
    if (signal?.aborted === true) {
      return Promise.reject(new HostError('cancelled', 'The request was cancelled before it was shown'));
    }
    const id = randomBytes(16).toString('base64url');
    // The prompt is parsed so that nothing the schema doesn't name reaches the renderer.
    const parsedPrompt: unknown = consentKinds[kind].prompt.parse(prompt);
    const request = { id, kind, server, createdAt: Date.now(), prompt: parsedPrompt } as ConsentRequest;

    return new Promise<ConsentAnswer<K>>((resolve, reject) => {
      const onAbort = (): void => {
        if (this.finish(id, 'withdrawn')) {
          reject(new HostError('cancelled', 'The request was withdrawn before it was answered'));
        }
      };
      this.pendingById.set(id, {
        request,
        settle: (answer) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(answer as ConsentAnswer<K>);
        },
        fail: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      this.options.onRequested(request);
    });
  }

  /**
   * The renderer's answer. Refuses ids that were never issued, that were
   * already answered or withdrawn, and answers of the wrong shape (which
   * leave the request pending, so a fixed answer can follow).
   */
  answer(id: string, answer: unknown): void {
    const pending = this.pendingById.get(id);
    if (!pending) {
      const earlier = this.resolved.get(id);
      if (earlier === 'answered') {
        throw new HostError('conflict', 'This consent request was already answered');
      }
      if (earlier === 'withdrawn') {
        throw new HostError('conflict', 'This consent request was withdrawn and can no longer be answered');
      }
      throw new HostError('not_found', 'No such consent request');
    }
    const parsed = consentKinds[pending.request.kind].answer.safeParse(answer);
    if (!parsed.success) {
      throw new HostError('invalid_params', `Not a valid answer to a "${pending.request.kind}" request`);
    }
    this.finish(id, 'answered');
    pending.settle(parsed.data);
  }

  /** Withdraws every pending request of a server (it stopped or went away). */
  withdrawServer(server: string): void {
    for (const [id, pending] of [...this.pendingById]) {
      if (pending.request.server !== server) continue;
      if (this.finish(id, 'withdrawn')) {
        pending.fail(new HostError('cancelled', `"${server}" went away before the request was answered`));
      }
    }
  }

  /** Withdraws everything (the host is shutting down). */
  withdrawAll(): void {
    for (const server of new Set([...this.pendingById.values()].map((p) => p.request.server))) {
      this.withdrawServer(server);
    }
  }

  /** The pending requests, oldest first (a reconnecting renderer restores its dialogs from this). */
  pending(): ConsentRequest[] {
    return [...this.pendingById.values()].map((p) => p.request);
  }

  /** Moves a request from pending to resolved; false when it was not pending. */
  private finish(id: string, outcome: ConsentOutcome): boolean {
    if (!this.pendingById.delete(id)) return false;
    this.resolved.set(id, outcome);
    if (this.resolved.size > this.rememberResolved) {
      const oldest = this.resolved.keys().next();
      if (oldest.done !== true) this.resolved.delete(oldest.value);
    }
    this.options.onResolved(id, outcome);
    return true;
  }
}
