/* eslint-disable @typescript-eslint/no-deprecated --
 * The low-level SDK Server plays a 2025-era server that sends raw
 * task-augmented requests and task methods, which McpServer does not offer.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { InMemoryTransport, Server } from '@modelcontextprotocol/server';
import type { Client, JSONRPCNotification } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { hostClientFeatures } from '../../../../../../electron/host/client-features/feature-list.js';
import { AnthropicSamplingModel } from '../../../../../../electron/host/client-features/sampling/sampling-model.js';
import { SamplingRateLimiter } from '../../../../../../electron/host/client-features/sampling/sampling-rate-limit.js';
import { ConsentBroker } from '../../../../../../electron/host/consent/consent-broker.js';
import { createServerClient } from '../../../../../../electron/host/servers/server-client.js';
import type { ConsentOutcome, ConsentRequest } from '../../../../../../shared/model/consent.js';

/**
 * The host as the receiver of tasks (2025-11-25): a real SDK server asks the
 * host's client (createServerClient with the host's features) to run
 * elicitation and sampling as tasks, then follows them with tasks/get,
 * tasks/result, tasks/list and tasks/cancel over an in-memory link.
 */

const TaskSchema = z.looseObject({
  taskId: z.string(),
  status: z.string(),
  statusMessage: z.string().optional(),
  ttl: z.number().nullable(),
  createdAt: z.string(),
  lastUpdatedAt: z.string(),
});
const CreatedSchema = z.looseObject({ task: TaskSchema });
const ListSchema = z.looseObject({ tasks: z.array(TaskSchema), nextCursor: z.string().optional() });
const AnySchema = z.looseObject({});

const FORM = {
  mode: 'form',
  message: 'Where?',
  requestedSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const MESSAGE = { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 };

interface Peer {
  server: Server;
  client: Client;
  /** The consent requests raised, and how each ended. */
  asked: ConsentRequest[];
  resolved: Map<string, ConsentOutcome>;
  consent: ConsentBroker;
  /** The `notifications/tasks/status` the server received. */
  statuses: JSONRPCNotification[];
  /** The lines the tasks feature wrote in this server's log. */
  warnings: string[];
  send: (method: string, params: Record<string, unknown>) => Promise<unknown>;
  createTask: (method: string, params: Record<string, unknown>, ttl?: number) => Promise<{ taskId: string }>;
}

const open: Peer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).flatMap((p) => [p.client.close(), p.server.close()]));
});

async function connect(name: string): Promise<Peer> {
  const asked: ConsentRequest[] = [];
  const resolved = new Map<string, ConsentOutcome>();
  const consent = new ConsentBroker({
    onRequested: (request) => asked.push(request),
    onResolved: (id, outcome) => resolved.set(id, outcome),
  });
  const server = new Server({ name, version: '1' }, { capabilities: {} });
  const statuses: JSONRPCNotification[] = [];
  const warnings: string[] = [];
  const client = createServerClient({
    server: name,
    appVersion: '0.0.0-test',
    negotiation: 'legacy-only',
    probeTimeoutMs: 1000,
    config: () => ({ command: 'unused' }),
    listChanged: {},
    features: hostClientFeatures({
      sampling: {
        consent,
        model: new AnthropicSamplingModel(() =>
          Promise.resolve({ apiKey: 'unused', baseURL: 'http://127.0.0.1:9' }),
        ),
        limiter: new SamplingRateLimiter(100),
      },
      elicitation: { consent, openExternal: () => Promise.reject(new Error('no browser')) },
      tasks: { statusNotified: () => undefined, warn: (_server, line) => warnings.push(line) },
    }),
    onResourceUpdated: () => undefined,
    onLog: () => undefined,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const received = serverSide.onmessage;
  serverSide.onmessage = (message, extra) => {
    if ('method' in message && message.method === 'notifications/tasks/status' && !('id' in message)) {
      statuses.push(message);
    }
    received?.(message, extra);
  };
  await client.connect(clientSide);
  const send = (method: string, params: Record<string, unknown>): Promise<unknown> =>
    server.request({ method, params }, AnySchema);
  const createTask = async (method: string, params: Record<string, unknown>, ttl = 60_000) => {
    const answer = CreatedSchema.parse(await send(method, { ...params, task: { ttl } }));
    return answer.task;
  };
  const peer = { server, client, asked, resolved, consent, statuses, warnings, send, createTask };
  open.push(peer);
  return peer;
}

const until = async (check: () => boolean): Promise<void> => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(check()).toBe(true);
};

describe('tasks the server asks the host to run (client as receiver)', () => {
  it('answers at once with a working task while the dialog waits; tasks/result blocks until the answer', async () => {
    const p = await connect('alpha');
    const created = await p.send('elicitation/create', { ...FORM, task: { ttl: 30_000 } });
    const task = CreatedSchema.parse(created).task;
    expect(task).toMatchObject({ status: 'working', ttl: 30_000 });
    await until(() => p.asked.length === 1);
    expect(p.asked[0]).toMatchObject({ kind: 'elicitationForm', server: 'alpha' });

    expect(TaskSchema.parse(await p.send('tasks/get', { taskId: task.taskId })).status).toBe('working');
    const listed = ListSchema.parse(await p.send('tasks/list', {}));
    expect(listed.tasks.map((t) => t.taskId)).toEqual([task.taskId]);

    let settled = false;
    const result = p.send('tasks/result', { taskId: task.taskId }).then((r) => {
      settled = true;
      return r;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(settled).toBe(false); // blocks while the person has not answered
    p.consent.answer(p.asked[0]?.id ?? '', { action: 'accept', content: { city: 'Oslo' } });
    expect(await result).toEqual({
      action: 'accept',
      content: { city: 'Oslo' },
      _meta: { 'io.modelcontextprotocol/related-task': { taskId: task.taskId } },
    });
    expect(TaskSchema.parse(await p.send('tasks/get', { taskId: task.taskId })).status).toBe('completed');
    await until(() => p.statuses.length === 1);
    expect(p.statuses[0]?.params).toMatchObject({ taskId: task.taskId, status: 'completed' });
  });

  it('a request the person rejects fails the task; tasks/result gives the error the plain request would', async () => {
    const p = await connect('alpha');
    const task = await p.createTask('sampling/createMessage', MESSAGE);
    await until(() => p.asked.length === 1);
    p.consent.answer(p.asked[0]?.id ?? '', { decision: 'reject' });
    await expect(p.send('tasks/result', { taskId: task.taskId })).rejects.toThrow(
      /User rejected sampling request/,
    );
    const got = TaskSchema.parse(await p.send('tasks/get', { taskId: task.taskId }));
    expect(got).toMatchObject({ status: 'failed', statusMessage: expect.stringContaining('User rejected') });
  });

  it('tasks/cancel withdraws the dialog and marks the task cancelled; a second cancel is refused', async () => {
    const p = await connect('alpha');
    const task = await p.createTask('elicitation/create', FORM);
    await until(() => p.asked.length === 1);
    const waiting = p.send('tasks/result', { taskId: task.taskId });
    const cancelled = TaskSchema.parse(await p.send('tasks/cancel', { taskId: task.taskId }));
    expect(cancelled.status).toBe('cancelled');
    await expect(waiting).rejects.toThrow(/Task was cancelled/);
    await until(() => p.resolved.get(p.asked[0]?.id ?? '') === 'withdrawn');
    await expect(p.send('tasks/cancel', { taskId: task.taskId })).rejects.toThrow(/already cancelled/);
    await until(() => p.statuses.some((n) => n.params?.status === 'cancelled'));
  });

  it('after its ttl a task and its result are gone, and its dialog is withdrawn', async () => {
    const p = await connect('alpha');
    const task = await p.createTask('elicitation/create', FORM, 1000);
    await until(() => p.asked.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 1300));
    await expect(p.send('tasks/get', { taskId: task.taskId })).rejects.toThrow(/Task not found/);
    expect(p.resolved.get(p.asked[0]?.id ?? '')).toBe('withdrawn');
    expect(ListSchema.parse(await p.send('tasks/list', {})).tasks).toEqual([]);
  });

  it('a flood of task requests gets a clear error past the limit; the tasks before it run on', async () => {
    const p = await connect('alpha');
    const tasks = [];
    for (let i = 0; i < 8; i++) tasks.push(await p.createTask('elicitation/create', FORM));
    await expect(p.createTask('elicitation/create', FORM)).rejects.toThrow(
      /Too many tasks: server "alpha" already has 8 sampling or elicitation tasks running on this host \(the limit is 8\)/,
    );
    const listed = ListSchema.parse(await p.send('tasks/list', {}));
    expect(listed.tasks.map((t) => t.status)).toEqual(Array(8).fill('working'));
    // A finished task frees its place.
    await p.send('tasks/cancel', { taskId: tasks[0]?.taskId });
    await expect(p.createTask('elicitation/create', FORM)).resolves.toMatchObject({ status: 'working' });
  });

  it("a task id of one server is unknown to every other server's connection", async () => {
    const a = await connect('alpha');
    const b = await connect('beta');
    const task = await a.createTask('elicitation/create', FORM);
    for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
      await expect(b.send(method, { taskId: task.taskId })).rejects.toThrow(/Task not found/);
    }
    expect(ListSchema.parse(await b.send('tasks/list', {})).tasks).toEqual([]);
    expect(TaskSchema.parse(await a.send('tasks/get', { taskId: task.taskId })).status).toBe('working');
  });

  it('a tasks/update (the host runs no task a server could update) is one log line and an error', async () => {
    const p = await connect('alpha');
    const task = await p.createTask('elicitation/create', FORM);
    await expect(p.send('tasks/update', { taskId: task.taskId, inputResponses: {} })).rejects.toThrow(
      /Task not found/,
    );
    expect(p.warnings).toEqual([
      `[host] refused a tasks/update for task "${task.taskId}", which the host does not know`,
    ]);
    expect(TaskSchema.parse(await p.send('tasks/get', { taskId: task.taskId })).status).toBe('working');
  });

  it('a request without task metadata is answered as before', async () => {
    const p = await connect('alpha');
    const plain = p.send('elicitation/create', FORM);
    await until(() => p.asked.length === 1);
    p.consent.answer(p.asked[0]?.id ?? '', { action: 'decline' });
    expect(await plain).toEqual({ action: 'decline' });
    expect(ListSchema.parse(await p.send('tasks/list', {})).tasks).toEqual([]);
  });
});
