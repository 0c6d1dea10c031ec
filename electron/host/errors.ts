import type { ErrorCode } from '../../shared/ipc/result.js';
import { ellipsize } from './text.js';

/**
 * The one error type the host core throws on purpose. Its message is one
 * line meant for a person; the code is for programs (UI state, CLI exit code).
 */
export class HostError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(oneLine(message), options);
    this.name = 'HostError';
  }
}

/** Collapses whitespace so a message fits on one line, and bounds its length. */
export function oneLine(text: string, max = 800): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return ellipsize(line, max);
}

/** A short, human message for anything thrown, never a stack trace. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return oneLine(error.message || error.name);
  if (typeof error === 'string') return oneLine(error);
  return 'Unknown error';
}
