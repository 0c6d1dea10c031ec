import { ProtocolError } from '@modelcontextprotocol/client';
import type {
  ClientContext,
  JSONRPCRequest,
  JSONRPCResponse,
  Result,
  Transport,
} from '@modelcontextprotocol/client';
import { z } from 'zod';
import { HostError } from '../../errors.js';
import { TASK_HANDLE_META_KEY } from './task-extension.js';

/**
 * The Tasks extension's requests on the 2026-07-28 wire, sent by the host's
 * client itself: the SDK (2.4) refuses to send tasks/get and tasks/cancel on
 * that era (they are 2025 vocabulary to it) and has no runtime for the
 * extension. Requests go out on the connection's own transport with the
 * era's request envelope; their answers are taken out of the response
 * stream before the SDK sees them (string ids of their own).
 */
export class ExtensionWire {
  private next = 0;
  private readonly pending = new Map<
    string,
    {
      resolve: (value: Record<string, unknown>) => void;
      reject: (error: Error) => void;
      timer: NodeJS.Timeout;
    }
  >();

  send(
    transport: Transport | undefined,
    envelope: Readonly<Record<string, unknown>> | undefined,
    method: string,
    params: Record<string, unknown>,
    timeoutMs: number,
  ): Promise<Record<string, unknown>> {
    if (!transport) return Promise.reject(new HostError('not_connected', 'The server is not connected'));
    const id = `mcp-host-task-${String(++this.next)}`;
    const message: JSONRPCRequest = {
      jsonrpc: '2.0',
      id,
      method,
      params: { ...params, ...(envelope ? { _meta: { ...envelope } } : {}) },
    };
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(
          new HostError(
            'timeout',
            `${method} got no answer within ${String(Math.round(timeoutMs / 1000))} s`,
          ),
        );
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      transport.send(message).catch((error: unknown) => {
        this.settle(id)?.reject(error instanceof Error ? error : new Error(String(error)));
      });
    });
  }

  /** An answer to one of this wire's requests is consumed here (true); any other goes on to the SDK. */
  take(response: JSONRPCResponse): boolean {
    if (typeof response.id !== 'string') return false;
    const entry = this.settle(response.id);
    if (!entry) return false;
    if ('error' in response) {
      entry.reject(new ProtocolError(response.error.code, response.error.message, response.error.data));
    } else {
      entry.resolve({ ...response.result });
    }
    return true;
  }

  /** The connection closed: every request still waiting fails. */
  close(): void {
    for (const id of [...this.pending.keys()]) {
      this.settle(id)?.reject(new HostError('not_connected', 'The connection closed'));
    }
  }

  private settle(id: string) {
    const entry = this.pending.get(id);
    if (!entry) return undefined;
    clearTimeout(entry.timer);
    this.pending.delete(id);
    return entry;
  }
}

/**
 * A tools/call answered with a task handle (`resultType: "task"`) becomes an
 * empty complete result carrying the handle in `_meta`, which the SDK
 * accepts and servers/tasks/task-call.ts follows. Any other response is
 * returned as it is. (A handle answering another method fails that
 * method's own result check, as the extension asks.)
 */
export function taskHandleAsResult(response: JSONRPCResponse): JSONRPCResponse {
  if (!('result' in response)) return response;
  const result: Record<string, unknown> = response.result;
  if (result.resultType !== 'task') return response;
  const { resultType: _type, _meta: meta, content: _content, ...task } = result;
  const kept = typeof meta === 'object' && meta !== null ? meta : {};
  return {
    ...response,
    result: { resultType: 'complete', content: [], _meta: { ...kept, [TASK_HANDLE_META_KEY]: task } },
  };
}

const InputRequestSchema = z.object({
  method: z.enum(['elicitation/create', 'sampling/createMessage', 'roots/list']),
  params: z.record(z.string(), z.unknown()).optional(),
});

/**
 * One input request of a task, answered by the handler that a direct
 * request of that method reaches (its checks, consent and dialogs included).
 */
export async function answerInputRequest(
  getHandler: (
    method: string,
  ) => ((request: JSONRPCRequest, ctx: ClientContext) => Promise<Result>) | undefined,
  sessionId: string | undefined,
  key: string,
  entry: unknown,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  const parsed = InputRequestSchema.safeParse(entry);
  if (!parsed.success) {
    throw new HostError('invalid_params', `The task's input request "${key}" is not one this host answers`);
  }
  const { method, params } = parsed.data;
  const handler = getHandler(method);
  if (!handler) throw new HostError('denied', `The task asks for ${method}, which this host does not answer`);
  const unavailable = (): Promise<never> =>
    Promise.reject(new HostError('denied', 'An input request cannot send requests of its own'));
  const ctx: ClientContext = {
    ...(sessionId !== undefined ? { sessionId } : {}),
    mcpReq: {
      id: key,
      method,
      _meta: undefined,
      requestState: () => undefined,
      signal,
      send: unavailable,
      notify: unavailable,
    },
  };
  return { ...(await handler({ jsonrpc: '2.0', id: key, method, ...(params ? { params } : {}) }, ctx)) };
}
