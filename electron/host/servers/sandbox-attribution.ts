import { setTimeout as sleep } from 'node:timers/promises';
import type { ToolCallResult } from '../../../shared/model/server.js';
import { HostError, describeError } from '../errors.js';

/**
 * How long after a failed call the host still listens for refusals: the
 * server words one on stderr before it replies on stdout, but the two pipes
 * are read apart, so the line may arrive a little after the reply.
 */
export const BLOCKED_GRACE_MS = 150;

/** At most this many attempts ride on one result (the schema's bound). */
const MAX_ATTRIBUTED = 20;

/** Where a call's blocked attempts are read from (a sandboxed server's transport). */
export interface BlockedSource {
  blockedSince?(at: number): string[] | undefined;
}

/** A tool call that failed while the sandbox blocked something: the card says so. */
export class SandboxedCallError extends HostError {
  constructor(
    error: HostError,
    readonly sandboxBlocked: string[],
  ) {
    super(error.code, error.message, { cause: error });
  }
}

/**
 * Runs one tool call and, when it fails (an error result or a thrown error)
 * on a server the sandbox watches, attaches what the sandbox blocked between
 * its start and its end plus the grace period: on the result as
 * `sandboxBlocked`, or on the error as a SandboxedCallError. Successful
 * calls and unsandboxed servers pay nothing; a cancelled call is not held up.
 * Two calls of one server running at once both get what either ran into.
 */
export async function withBlockedAttempts(
  source: BlockedSource,
  call: () => Promise<ToolCallResult>,
  signal?: AbortSignal,
  graceMs = BLOCKED_GRACE_MS,
): Promise<ToolCallResult> {
  const started = performance.now();
  if (source.blockedSince?.(started) === undefined) return call();
  const blockedDuring = async (): Promise<string[]> => {
    if (signal?.aborted === true) return [];
    await sleep(graceMs);
    return (source.blockedSince?.(started) ?? []).slice(-MAX_ATTRIBUTED);
  };
  let result: ToolCallResult;
  try {
    result = await call();
  } catch (error) {
    const blocked = await blockedDuring();
    if (blocked.length === 0) throw error;
    throw new SandboxedCallError(
      error instanceof HostError ? error : new HostError('internal', describeError(error)),
      blocked,
    );
  }
  if (!result.isError) return result;
  const blocked = await blockedDuring();
  return blocked.length > 0 ? { ...result, sandboxBlocked: blocked } : result;
}
