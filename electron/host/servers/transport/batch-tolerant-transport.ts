import { parseJSONRPCMessage } from '@modelcontextprotocol/client';
import type { FetchLike, JSONRPCMessage } from '@modelcontextprotocol/client';

/**
 * JSON-RPC batches from 2025-03-26 servers.
 *
 * That revision let a server send several messages as one JSON array (for
 * example a progress notification and the response in one SSE event); later
 * revisions removed batching, and the SDK's transports parse every frame as a
 * single message, so a batch is dropped as a parse error and its request
 * never completes. The SDK's transports decode a frame before any
 * `Transport` wrapper could see it, so the split happens one seam lower,
 * without forking the SDK: on HTTP, the `fetch` the SDK transports are given
 * rewrites each SSE event whose data is an array into one event per message;
 * on stdio (our own transport) a line holding an array is split the same way.
 * A JSON body that is an array is already split by the SDK itself.
 */

/**
 * The messages of a JSON-RPC batch, each validated with the SDK's schema;
 * `undefined` when `value` is not an array or any element is not a message
 * (the caller then reports the frame as it would any malformed one).
 */
export function splitJsonRpcBatch(value: unknown): JSONRPCMessage[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const messages: JSONRPCMessage[] = [];
  for (const item of value) {
    try {
      messages.push(parseJSONRPCMessage(item));
    } catch {
      return undefined;
    }
  }
  return messages;
}

/** `splitJsonRpcBatch` for one line of text; `undefined` unless it is a JSON array of messages. */
export function splitBatchText(text: string): JSONRPCMessage[] | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('[')) return undefined;
  try {
    return splitJsonRpcBatch(JSON.parse(trimmed));
  } catch {
    return undefined;
  }
}

/**
 * Wraps a fetch so that every `text/event-stream` response body has its
 * batched events split (see {@link splitSseBatches}). Everything else passes
 * through untouched.
 */
export function batchTolerantFetch(inner: FetchLike): FetchLike {
  return async (url, init) => {
    const response = await inner(url, init);
    const type = response.headers.get('content-type') ?? '';
    if (!response.body || !type.toLowerCase().includes('text/event-stream')) return response;
    return new Response(response.body.pipeThrough(splitSseBatches()), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/**
 * A byte stream transform over an SSE stream: an event (no `event:` field, or
 * `event: message`) whose data is a JSON array of JSON-RPC messages becomes
 * one event per message. The event's `retry:` stays on the first and its
 * `id:` moves to the last, so a reconnect's Last-Event-ID still means "after
 * all of these". Every other event is passed on byte for byte.
 */
export function splitSseBatches(): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending = '';
  let eventLines: string[] = [];

  const flushEvent = (controller: TransformStreamDefaultController<Uint8Array>) => {
    const lines = eventLines;
    eventLines = [];
    const split = splitEvent(lines);
    controller.enqueue(encoder.encode(split ?? `${lines.join('\n')}\n\n`));
  };

  const consume = (controller: TransformStreamDefaultController<Uint8Array>, final: boolean) => {
    // Lines end in \n, \r\n or \r; a lone \r at the very end may be half of \r\n.
    const pattern = /\r\n|\n|\r(?!$)/g;
    let start = 0;
    for (let match = pattern.exec(pending); match; match = pattern.exec(pending)) {
      const line = pending.slice(start, match.index);
      start = match.index + match[0].length;
      if (line === '') {
        if (eventLines.length > 0) flushEvent(controller);
        else controller.enqueue(encoder.encode('\n'));
      } else {
        eventLines.push(line);
      }
    }
    pending = pending.slice(start);
    if (final) {
      if (pending !== '') eventLines.push(pending.replace(/\r$/, ''));
      pending = '';
      // An unterminated event is never dispatched by an SSE parser; pass it on as it was.
      if (eventLines.length > 0) controller.enqueue(encoder.encode(eventLines.join('\n')));
      eventLines = [];
    }
  };

  return new TransformStream({
    transform(chunk, controller) {
      pending += decoder.decode(chunk, { stream: true });
      consume(controller, false);
    },
    flush(controller) {
      pending += decoder.decode();
      consume(controller, true);
    },
  });
}

/** The text of the events one batched event becomes, or `undefined` to keep it as it is. */
function splitEvent(lines: readonly string[]): string | undefined {
  const data: string[] = [];
  const other: { name: string; line: string }[] = [];
  for (const line of lines) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const name = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (name === 'data') data.push(value);
    else other.push({ name, line });
  }
  const event = other.find((field) => field.name === 'event');
  if (event && event.line.replace(/^event:\s?/, '') !== 'message') return undefined;
  const messages = splitBatchText(data.join('\n'));
  if (!messages) return undefined;
  const retry = other.filter((field) => field.name === 'retry').map((field) => field.line);
  const id = other.filter((field) => field.name === 'id').map((field) => field.line);
  return messages
    .map((message, index) => {
      const fields = [
        ...(index === 0 ? retry : []),
        ...(event ? [event.line] : []),
        `data: ${JSON.stringify(message)}`,
        ...(index === messages.length - 1 ? id : []),
      ];
      return `${fields.join('\n')}\n\n`;
    })
    .join('');
}
