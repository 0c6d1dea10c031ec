import type { JSONRPCErrorResponse } from '@modelcontextprotocol/client';
import type { OversizedLine } from './line-splitter.js';

/** Marks the error the host puts in place of a reply it would not read. */
export const OVERSIZED_REPLY_MARK = 'mcp-host/oversized-reply';

type RequestId = string | number;

const ID = String.raw`(-?\d+|"(?:[^"\\]|\\.){0,200}")`;
/**
 * A response's head: only `jsonrpc` and `id` keys before `result`/`error`.
 * Requests and notifications never match, since their `method` key breaks the
 * run, so an id found here can only be one of our own requests.
 */
const RESPONSE_HEAD = new RegExp(
  String.raw`^\s*\{(?:\s*"(?:jsonrpc|id)"\s*:\s*(?:"[^"]*"|-?\d+)\s*,)*\s*"(?:result|error)"\s*:`,
);
const ID_IN_HEAD = new RegExp(String.raw`"id"\s*:\s*${ID}\s*,`);
/** A response whose `id` (and perhaps `jsonrpc`) comes after its result, as some serializers order it. */
const ID_AT_END = new RegExp(String.raw`[,{]\s*"id"\s*:\s*${ID}\s*(?:,\s*"jsonrpc"\s*:\s*"2\.0"\s*)?\}\s*$`);

/**
 * The id of the response a too-long stdout line carries, when its head (or,
 * once it has ended, its tail) shows one; `undefined` when the line is not
 * recognisably a response, so no unrelated request is ever failed by mistake.
 */
export function oversizedResponseId(line: OversizedLine): RequestId | undefined {
  const head = RESPONSE_HEAD.exec(line.head);
  if (!head) return undefined;
  const inHead = ID_IN_HEAD.exec(head[0]);
  if (inHead?.[1] !== undefined) return parseId(inHead[1]);
  if (!line.ended) return undefined;
  const atEnd = ID_AT_END.exec(line.tail.replace(/\r$/, ''));
  return atEnd?.[1] !== undefined ? parseId(atEnd[1]) : undefined;
}

/**
 * The error response delivered in place of a reply over the size limit, so
 * the request fails at once instead of waiting out its timeout.
 */
export function oversizedReplyError(
  id: RequestId,
  line: OversizedLine,
  limitBytes: number,
): JSONRPCErrorResponse {
  const limit = formatMiB(limitBytes);
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: -32603,
      message: line.ended
        ? `it was ${formatMiB(line.bytes)}, more than the ${limit} the host reads in one message`
        : `it passed the ${limit} the host reads in one message`,
      data: { [OVERSIZED_REPLY_MARK]: true, bytes: line.bytes, ended: line.ended },
    },
  };
}

function parseId(text: string): RequestId {
  return text.startsWith('"') ? (JSON.parse(text) as string) : Number(text);
}

function formatMiB(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return `${mib >= 10 ? mib.toFixed(0) : mib.toFixed(1)} MiB`;
}
