import { afterEach, describe, expect, it, vi } from 'vitest';
import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import { specTypeSchemas } from '@modelcontextprotocol/client';
import type { Client, JSONRPCMessage, MessageExtraInfo, Transport } from '@modelcontextprotocol/client';
import { tasksFeature } from '../../../../../electron/host/client-features/tasks/tasks-feature.js';
import type { TaskStatusUpdate } from '../../../../../electron/host/client-features/tasks/tasks-feature.js';
import { InboundFastLane } from '../../../../../electron/host/servers/inbound-fast-lane.js';
import { createServerClient } from '../../../../../electron/host/servers/server-client.js';
import { TASK_STATUS_PARAMS } from '../../../../helpers/task-status.js';

const status = (params: Record<string, unknown> = {}): Record<string, unknown> => ({
  jsonrpc: '2.0',
  method: 'notifications/tasks/status',
  params: { ...TASK_STATUS_PARAMS, ...params },
});

function laneTaking(): { lane: InboundFastLane; seen: Readonly<Record<string, unknown>>[] } {
  const lane = new InboundFastLane();
  const seen: Readonly<Record<string, unknown>>[] = [];
  lane.add('notifications/tasks/status', (params) => {
    seen.push(params);
    return params.status !== 'refused-by-the-path';
  });
  return { lane, seen };
}

describe('InboundFastLane', () => {
  it('takes a notification of its method whose envelope the SDK would accept', () => {
    const { lane, seen } = laneTaking();
    expect(lane.take(status())).toBe(true);
    expect(lane.take(status({ _meta: { 'io.modelcontextprotocol/related-task': { taskId: 'x' } } }))).toBe(
      true,
    );
    expect(seen.map((params) => params.taskId)).toEqual(['task-1', 'task-1']);
  });

  it('leaves to the SDK whatever it does not recognise, without reading its params', () => {
    const { lane, seen } = laneTaking();
    const leftAlone: unknown[] = [
      { ...status(), id: 7 }, // a request, not a notification
      { ...status(), extra: true }, // the SDK's envelope is strict
      { ...status(), jsonrpc: '1.0' },
      { ...status(), params: [1, 2] },
      { ...status(), params: undefined },
      status({ _meta: 'not an object' }),
      { ...status(), method: 'notifications/progress' }, // no fast path for it
      [status()], // a batch is split by the transport first
      'notifications/tasks/status',
      null,
    ];
    for (const message of leftAlone) expect(lane.take(message)).toBe(false);
    expect(seen).toEqual([]);
  });

  it('accepts a _meta exactly when the SDK schema does', () => {
    const { lane } = laneTaking();
    const related = 'io.modelcontextprotocol/related-task';
    const metas: unknown[] = [
      {},
      { anything: [1] },
      { progressToken: 'p' },
      { progressToken: 7 },
      { progressToken: 1.5 },
      { progressToken: 2 ** 60 },
      { progressToken: null },
      { progressToken: {} },
      { [related]: { taskId: 't' } },
      { [related]: { taskId: 't', more: 1 } },
      { [related]: { taskId: 3 } },
      { [related]: 't' },
      { [related]: null },
      null,
      [],
      'meta',
    ];
    for (const meta of metas) {
      const message = status({ _meta: meta });
      const sdk = specTypeSchemas.TaskStatusNotificationParams['~standard'].validate(message.params);
      if (sdk instanceof Promise) throw new Error('the SDK schema is synchronous');
      expect({ meta, taken: lane.take(message) }).toEqual({ meta, taken: sdk.issues === undefined });
    }
  });

  it('leaves a message to the SDK when its fast path does not take the params', () => {
    const { lane, seen } = laneTaking();
    expect(lane.take(status({ status: 'refused-by-the-path' }))).toBe(false);
    expect(seen).toHaveLength(1);
  });

  it('on a transport that parses lines itself, takes the first look; on any other, wraps the dispatch', () => {
    const { lane } = laneTaking();
    const stdioLike = { firstLook: undefined as ((value: unknown) => boolean) | undefined };
    lane.attach(stdioLike as unknown as Transport);
    expect(stdioLike.firstLook?.(status())).toBe(true);
    expect(stdioLike.firstLook?.({ ...status(), id: 1 })).toBe(false);

    const reached: { message: JSONRPCMessage; extra: MessageExtraInfo | undefined }[] = [];
    const other = {
      onmessage: (message: JSONRPCMessage, extra?: MessageExtraInfo) => reached.push({ message, extra }),
    } as unknown as Transport;
    lane.attach(other);
    const request = { jsonrpc: '2.0', id: 1, method: 'ping' } as JSONRPCMessage;
    const extra: MessageExtraInfo = { request: new Request('http://127.0.0.1/mcp') };
    other.onmessage?.(status() as JSONRPCMessage);
    other.onmessage?.(request, extra);
    expect(reached).toEqual([{ message: request, extra }]);
  });
});

describe('the host client: task status notifications take the fast lane', () => {
  const open: { client: Client; server: McpServer }[] = [];
  afterEach(async () => {
    vi.restoreAllMocks();
    await Promise.all(open.splice(0).flatMap(({ client, server }) => [client.close(), server.close()]));
  });

  async function connected(): Promise<{ send: (m: unknown) => Promise<void>; notified: TaskStatusUpdate[] }> {
    const notified: TaskStatusUpdate[] = [];
    const client = createServerClient({
      server: 'probe',
      appVersion: '0.0.0-test',
      negotiation: 'legacy-only',
      probeTimeoutMs: 1000,
      config: () => ({ command: 'unused' }),
      listChanged: {},
      features: [tasksFeature({ statusNotified: (_server, update) => notified.push(update) })],
      onResourceUpdated: () => undefined,
      onLog: () => undefined,
    });
    const server = new McpServer({ name: 'probe', version: '1' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    await client.connect(clientSide);
    open.push({ client, server });
    const send = async (message: unknown): Promise<void> => {
      await serverSide.send(message as JSONRPCMessage);
      await new Promise((resolve) => setTimeout(resolve, 10));
    };
    return { send, notified };
  }

  it('a valid status reaches the registry without the SDK schema; an invalid one is left to the SDK', async () => {
    const sdkCheck = vi.spyOn(specTypeSchemas.TaskStatusNotificationParams['~standard'], 'validate');
    const { send, notified } = await connected();
    for (let i = 1; i <= 20; i++) await send(status({ statusMessage: `tick ${String(i)}` }));
    expect(notified).toHaveLength(20);
    expect(notified.at(-1)).toEqual({ taskId: 'task-1', status: 'working', statusMessage: 'tick 20' });
    expect(sdkCheck).not.toHaveBeenCalled();

    // Not a task status the SDK accepts either: its handler checks it and refuses it, as before.
    await send(status({ createdAt: 42 }));
    expect(sdkCheck).toHaveBeenCalledTimes(1);
    expect(notified).toHaveLength(20);
  });
});
