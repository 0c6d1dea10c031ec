import { APIConnectionError, APIError } from '@anthropic-ai/sdk';
import type { ChatErrorCode } from '../../../shared/model/chat.js';
import { describeError, oneLine } from '../errors.js';

export interface ChatError {
  code: ChatErrorCode;
  message: string;
}

/** The kind of an API status the SDK retries: 429 rate limited, 529 overloaded, anything else "api". */
export function retryableKind(status: number | undefined): 'rate_limited' | 'overloaded' | 'api' {
  return status === 429 ? 'rate_limited' : status === 529 ? 'overloaded' : 'api';
}

/** Turns whatever the SDK threw into one clear line and a kind the UI can act on. */
export function toChatError(error: unknown, baseUrl: string): ChatError {
  if (error instanceof APIConnectionError) {
    return { code: 'network', message: `Could not reach ${baseUrl}: ${detail(error)}` };
  }
  if (error instanceof APIError) {
    const status = error.status as number | undefined;
    const said = apiMessage(error.error as unknown);
    if (status === 401) {
      return { code: 'auth', message: `The API key was not accepted (401)${said}. Check it in Settings.` };
    }
    if (status === 403) return { code: 'auth', message: `Not allowed (403)${said}` };
    const code = retryableKind(status);
    if (code === 'api') return { code, message: `The API answered ${String(status ?? 'an error')}${said}` };
    const what = code === 'rate_limited' ? 'Rate limited by the API' : 'The API is overloaded';
    return {
      code,
      message: `${what} (${String(status)})${said}; retried, then gave up. Try again shortly.`,
    };
  }
  return { code: 'internal', message: describeError(error) };
}

/** The API's own explanation, from its error body `{ error: { message } }`. */
function apiMessage(body: unknown): string {
  if (typeof body === 'object' && body !== null && 'error' in body) {
    const inner: unknown = body.error;
    if (
      typeof inner === 'object' &&
      inner !== null &&
      'message' in inner &&
      typeof inner.message === 'string'
    ) {
      return `: ${oneLine(inner.message, 200)}`;
    }
  }
  return '';
}

function detail(error: Error): string {
  const cause: unknown = error.cause;
  if (cause instanceof Error && cause.message !== '') return oneLine(cause.message, 200);
  return oneLine(error.message, 200);
}
