import { describe, expect, it } from 'vitest';
import { InMemoryTransport, ProtocolError } from '@modelcontextprotocol/client';
import type { JSONRPCMessage, JSONRPCResponse } from '@modelcontextprotocol/client';
import {
  ExtensionWire,
  taskHandleAsResult,
} from '../../../../../../electron/host/servers/tasks/extension-wire.js';
import { TASK_HANDLE_META_KEY } from '../../../../../../electron/host/servers/tasks/task-extension.js';

/** A linked pair: what the wire writes arrives on the far side's `received`. */
async function link(): Promise<{ near: InMemoryTransport; received: JSONRPCMessage[] }> {
  const [near, far] = InMemoryTransport.createLinkedPair();
  const received: JSONRPCMessage[] = [];
  far.onmessage = (message) => received.push(message);
  await near.start();
  await far.start();
  return { near, received };
}

const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };

describe('ExtensionWire', () => {
  it('sends the request with the envelope and takes only its own answer', async () => {
    const wire = new ExtensionWire();
    const { near, received } = await link();
    const answer = wire.send(near, ENVELOPE, 'tasks/get', { taskId: 't1' }, 5000);
    await Promise.resolve();
    const sent = received[0];
    expect(sent).toMatchObject({ method: 'tasks/get', params: { taskId: 't1', _meta: ENVELOPE } });
    const id = sent && 'id' in sent ? sent.id : undefined;
    expect(typeof id).toBe('string');
    // An answer to a request of the SDK (a number id) is not the wire's.
    expect(wire.take({ jsonrpc: '2.0', id: 7, result: {} })).toBe(false);
    expect(wire.take({ jsonrpc: '2.0', id: id ?? '', result: { status: 'working' } })).toBe(true);
    await expect(answer).resolves.toEqual({ status: 'working' });
    // Answered once: the same id again goes on to the SDK.
    expect(wire.take({ jsonrpc: '2.0', id: id ?? '', result: {} })).toBe(false);
  });

  it('an error answer is a ProtocolError with its code; no answer is one line after the timeout', async () => {
    const wire = new ExtensionWire();
    const { near, received } = await link();
    const failing = wire.send(near, undefined, 'tasks/cancel', { taskId: 'gone' }, 5000);
    await Promise.resolve();
    const id = received[0] && 'id' in received[0] ? received[0].id : '';
    wire.take({ jsonrpc: '2.0', id, error: { code: -32602, message: 'Task not found' } });
    const error: unknown = await failing.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).code).toBe(-32602);
    await expect(wire.send(near, undefined, 'tasks/get', { taskId: 'slow' }, 50)).rejects.toThrow(
      'tasks/get got no answer within 0 s',
    );
  });

  it('a closed connection fails every request still waiting; no transport fails at once', async () => {
    const wire = new ExtensionWire();
    const { near } = await link();
    const waiting = wire.send(near, undefined, 'tasks/get', { taskId: 't' }, 5000);
    wire.close();
    await expect(waiting).rejects.toThrow('The connection closed');
    await expect(wire.send(undefined, undefined, 'tasks/get', { taskId: 't' }, 5000)).rejects.toThrow(
      'The server is not connected',
    );
  });
});

describe('taskHandleAsResult', () => {
  it('turns a task handle into an empty complete result carrying the handle', () => {
    const response: JSONRPCResponse = {
      jsonrpc: '2.0',
      id: 3,
      result: {
        resultType: 'task',
        taskId: 'x',
        status: 'working',
        content: [],
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 's', version: '1' } },
      },
    };
    expect(taskHandleAsResult(response)).toEqual({
      jsonrpc: '2.0',
      id: 3,
      result: {
        resultType: 'complete',
        content: [],
        _meta: {
          'io.modelcontextprotocol/serverInfo': { name: 's', version: '1' },
          [TASK_HANDLE_META_KEY]: { taskId: 'x', status: 'working' },
        },
      },
    });
  });

  it('leaves every other response as it is', () => {
    const complete: JSONRPCResponse = {
      jsonrpc: '2.0',
      id: 1,
      result: { resultType: 'complete', content: [] },
    };
    const error: JSONRPCResponse = { jsonrpc: '2.0', id: 2, error: { code: -1, message: 'no' } };
    expect(taskHandleAsResult(complete)).toBe(complete);
    expect(taskHandleAsResult(error)).toBe(error);
  });
});
