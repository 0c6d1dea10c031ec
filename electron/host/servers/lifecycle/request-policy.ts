import type { RequestOptions } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../../../../shared/model/config.js';
import { HostError } from '../../errors.js';

/** How long one request to a server may take. */
export interface RequestPolicy {
  /** Silence allowed before a request fails; each progress notification restarts it. */
  timeoutMs: number;
  /** Hard limit on a request that keeps reporting progress. */
  maxTotalTimeoutMs: number;
}

export const DEFAULT_REQUEST_POLICY: RequestPolicy = { timeoutMs: 60_000, maxTotalTimeoutMs: 600_000 };

export function requestPolicyOf(config: ServerConfig): RequestPolicy {
  const timeoutMs = config.timeout ?? DEFAULT_REQUEST_POLICY.timeoutMs;
  // A total limit below the silence limit would make the latter meaningless.
  const maxTotalTimeoutMs = Math.max(
    config.maxTotalTimeout ?? DEFAULT_REQUEST_POLICY.maxTotalTimeoutMs,
    timeoutMs,
  );
  return { timeoutMs, maxTotalTimeoutMs };
}

export interface ProgressUpdate {
  progress: number;
  total?: number | undefined;
  message?: string | undefined;
}

/** Why a guarded request ended early, so its error can say so. */
export type StopReason = 'cancelled' | 'max-total';

/**
 * One request under the policy. The SDK keeps the timer: `timeout` of
 * silence, restarted by each progress notification, and `maxTotalTimeout`,
 * which it checks when progress arrives (a silent request ends at `timeout`,
 * so a request ends at most one `timeout` after the total). A cancellable
 * request (one with a signal) also gets a hard deadline of its own at the
 * total. Aborting makes the SDK send `notifications/cancelled`.
 *
 * Only cancellable requests get an AbortController: on Node 20 creating one
 * costs about as much as the rest of the host's per-call work together.
 */
export class GuardedRequest {
  private readonly controller: AbortController | undefined;
  private readonly deadline: NodeJS.Timeout | undefined;
  private stopReason: StopReason | undefined;
  readonly options: RequestOptions;

  constructor(
    readonly policy: RequestPolicy,
    onProgress: ((update: ProgressUpdate) => void) | undefined,
    outerSignal?: AbortSignal,
  ) {
    if (outerSignal) {
      const controller = new AbortController();
      this.controller = controller;
      this.deadline = setTimeout(() => {
        this.stop('max-total');
      }, policy.maxTotalTimeoutMs);
      this.deadline.unref();
      if (outerSignal.aborted) this.stop('cancelled');
      else
        outerSignal.addEventListener(
          'abort',
          () => {
            this.stop('cancelled');
          },
          { once: true },
        );
    }
    this.options = {
      timeout: policy.timeoutMs,
      maxTotalTimeout: policy.maxTotalTimeoutMs,
      resetTimeoutOnProgress: true,
      ...(this.controller ? { signal: this.controller.signal } : {}),
      // Always ask for progress: it is what lets a long call outlive `timeout`.
      onprogress: (p) => {
        onProgress?.({ progress: p.progress, total: p.total, message: p.message });
      },
    };
  }

  /** Ends a cancellable request now (the server is told with notifications/cancelled). */
  stop(reason: StopReason): void {
    if (this.stopReason !== undefined || !this.controller) return;
    this.stopReason = reason;
    this.controller.abort(reason === 'cancelled' ? 'Cancelled by the user' : 'Maximum total time exceeded');
  }

  get stoppedBecause(): StopReason | undefined {
    return this.stopReason;
  }

  /** Must be called when the request settles. */
  dispose(): void {
    clearTimeout(this.deadline);
  }

  /** The error to show when the request ended because of this policy, else undefined. */
  failure(server: string, what: string, sdkTimedOut: boolean, maxTotalHit: boolean): HostError | undefined {
    if (this.stopReason === 'cancelled') return new HostError('cancelled', `${what} was cancelled`);
    if (this.stopReason === 'max-total' || maxTotalHit) {
      return new HostError(
        'timeout',
        `Server "${server}" did not finish ${what} within the maximum of ${formatDuration(this.policy.maxTotalTimeoutMs)} (maxTotalTimeout), although it kept reporting progress`,
      );
    }
    if (sdkTimedOut) {
      return new HostError(
        'timeout',
        `Server "${server}" did not answer ${what} within ${formatDuration(this.policy.timeoutMs)} (timeout)`,
      );
    }
    return undefined;
  }
}

/** "60 s", "10 min", "1.5 s". */
export function formatDuration(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${String(ms / 60_000)} min`;
  if (ms >= 1000) return `${String(Math.round(ms / 100) / 10)} s`;
  return `${String(ms)} ms`;
}

/**
 * Running tool calls that the renderer may cancel, keyed by the id it chose.
 * Ids are only keys (never executed or shown), scoped to one host.
 */
export class CancellableCalls {
  private readonly running = new Map<string, AbortController>();

  /** Registers a call; a second call with an id still in use is refused. */
  begin(callId: string): AbortController {
    if (this.running.has(callId))
      throw new HostError('conflict', `A call with id ${callId} is already running`);
    const controller = new AbortController();
    this.running.set(callId, controller);
    return controller;
  }

  end(callId: string): void {
    this.running.delete(callId);
  }

  /** True when a running call was cancelled; false when it had already finished. */
  cancel(callId: string): boolean {
    const controller = this.running.get(callId);
    if (!controller) return false;
    controller.abort();
    this.running.delete(callId);
    return true;
  }

  get size(): number {
    return this.running.size;
  }
}
