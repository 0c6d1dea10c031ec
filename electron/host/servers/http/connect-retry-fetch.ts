import type { FetchLike } from '@modelcontextprotocol/client';

/** Error codes of a connection the other side dropped before answering. */
const RESET_CODES: ReadonlySet<string> = new Set(['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE']);
/** Pause before the one retry, so a server shedding load gets a moment. */
const RETRY_DELAY_MS = 150;

/**
 * A fetch that, while a connection is being set up, sends a request once
 * more when the connection was reset before any answer came (a busy server
 * closing a kept-alive socket, a proxy restarting). Only the handshake's
 * requests are retried: they change nothing on the server until answered,
 * whereas a tool call sent again could run twice, so `connected()` ends the
 * retries for the life of the connection. A body that cannot be sent twice
 * (a stream) is never retried.
 */
export function connectRetryFetch(base: FetchLike): { fetch: FetchLike; connected(): void } {
  let connecting = true;
  const fetch: FetchLike = async (input, init) => {
    try {
      return await base(input, init);
    } catch (error) {
      const replayable = init?.body === undefined || init.body === null || typeof init.body === 'string';
      if (!connecting || !replayable || init?.signal?.aborted === true || !wasReset(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
      return base(input, init);
    }
  };
  return {
    fetch,
    connected() {
      connecting = false;
    },
  };
}

/** Whether a fetch failure's cause chain is a reset connection. */
function wasReset(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as NodeJS.ErrnoException).code;
    if (code !== undefined && RESET_CODES.has(code)) return true;
    current = current.cause;
  }
  return false;
}
