import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { HostError, describeError } from '../errors.js';
import { OVERSIZED_REPLY_MARK } from './stdio/oversized-reply.js';
import type { ProcessExit } from './stdio/stdio-transport.js';

/** "was killed by SIGTERM" or "exited with code 0". */
export function describeExitStatus(exit: ProcessExit): string {
  return exit.signal ? `was killed by ${exit.signal}` : `exited with code ${String(exit.code)}`;
}

/**
 * Maps a failed request (or handshake) to one clear line naming the server
 * and what happened. `exit` is how its process ended, if it has: a request
 * that failed because the server went away says that, with its last words
 * (unless the server answered it with an error first).
 */
export function requestFailure(
  server: string,
  error: unknown,
  what: string,
  exit: { status: ProcessExit; lastWords: string } | undefined,
): HostError {
  if (error instanceof HostError) return error;
  // A server that answered with an error said why, even if its process ended right after.
  if (error instanceof ProtocolError) {
    if (isOversizedReply(error.data)) {
      return new HostError(
        'protocol_error',
        `Server "${server}" sent a reply to ${what} that is too large: ${error.message}`,
      );
    }
    return new HostError(
      'protocol_error',
      `Server "${server}" answered ${what} with an error: ${error.message}`,
    );
  }
  if (exit) {
    const words = exit.lastWords ? `. ${exit.lastWords}` : '';
    return new HostError(
      'server_exited',
      `Server "${server}" ${describeExitStatus(exit.status)} during ${what}${words}`,
    );
  }
  if (error instanceof SdkError) {
    switch (error.code) {
      case SdkErrorCode.RequestTimeout:
        return new HostError('timeout', `Server "${server}" did not answer ${what} in time`);
      case SdkErrorCode.ConnectionClosed:
        return new HostError('server_exited', `Server "${server}" closed the connection during ${what}`);
      case SdkErrorCode.CapabilityNotSupported:
        return new HostError('not_found', `Server "${server}": ${describeError(error)}`);
      default:
        return new HostError('protocol_error', `Server "${server}": ${describeError(error)}`);
    }
  }
  if (error instanceof Error && error.name === 'AbortError') {
    return new HostError('cancelled', `${what} was cancelled`);
  }
  return new HostError('connection_failed', `Server "${server}": ${describeError(error)}`);
}

function isOversizedReply(data: unknown): boolean {
  return typeof data === 'object' && data !== null && OVERSIZED_REPLY_MARK in data;
}
