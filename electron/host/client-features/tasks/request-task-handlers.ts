import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import type { Client, JSONRPCRequest } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { isInterceptingClient, isModernConnection } from '../client-feature.js';
import type { ClientFeatureContext } from '../client-feature.js';
import { RequestTaskStore } from './request-tasks.js';
import type { RequestTaskOptions, WireTask } from './request-tasks.js';

/** The requests a server may ask this host to run as tasks (2025-11-25). */
export type TaskRequestMethod = 'sampling/createMessage' | 'elicitation/create';

const TaskIdParams = z.looseObject({ taskId: z.string().min(1).max(200) });
const ListParams = z.looseObject({ cursor: z.string().max(100).optional() });
/** The task metadata of a request (`params.task`); a ttl is whole milliseconds. */
const TaskMetadata = z.looseObject({ ttl: z.number().int().nonnegative().optional() });

/**
 * Serves tasks in the other direction on one connection: a server's
 * `sampling/createMessage` or `elicitation/create` with task metadata is
 * answered at once with a task, while the request runs through the handler
 * it always runs through (consent, dialogs, Claude); the server follows it
 * with tasks/get, tasks/result, tasks/list and tasks/cancel, and is told
 * of each change of status. The store belongs to this connection alone.
 *
 * Only on the 2025 wire: the 2026-07-28 revision has no client-side tasks.
 */
export function installRequestTasks(
  client: Client,
  context: ClientFeatureContext,
  methods: readonly TaskRequestMethod[],
  limits: Pick<RequestTaskOptions, 'maxRunning' | 'maxKept'> = {},
): RequestTaskStore | undefined {
  if (methods.length === 0 || !isInterceptingClient(client)) return undefined;
  const store = new RequestTaskStore({
    server: context.server,
    ...limits,
    notify: (task) => {
      notifyStatus(client, task);
    },
  });
  client.whenClosed(() => {
    store.close();
  });

  client.interceptRequests(methods, (request, ctx, next) => {
    const task = taskMetadataOf(request);
    if (task === undefined || isModernConnection(client)) return next(request, ctx);
    const plain = withoutTask(request);
    const created = store.create(request.method, task.ttl, (signal) =>
      next(plain, { ...ctx, mcpReq: { ...ctx.mcpReq, signal } }),
    );
    return Promise.resolve({ task: created });
  });

  client.setRequestHandler('tasks/get', { params: TaskIdParams }, (params) => ({
    ...store.get(params.taskId),
  }));
  client.setRequestHandler('tasks/result', { params: TaskIdParams }, (params) => store.result(params.taskId));
  client.setRequestHandler('tasks/list', { params: ListParams }, (params) => store.list(params.cursor));
  client.setRequestHandler('tasks/cancel', { params: TaskIdParams }, (params) => ({
    ...store.cancel(params.taskId),
  }));
  return store;
}

/** The request's task metadata, if it asks to run as a task; a malformed one is refused. */
function taskMetadataOf(request: JSONRPCRequest): z.infer<typeof TaskMetadata> | undefined {
  const task: unknown = request.params?.task;
  if (task === undefined) return undefined;
  const parsed = TaskMetadata.safeParse(task);
  if (!parsed.success) throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid task metadata');
  return parsed.data;
}

function withoutTask(request: JSONRPCRequest): JSONRPCRequest {
  if (!request.params) return request;
  const { task: _task, ...params } = request.params;
  return { ...request, params };
}

function notifyStatus(client: Client, task: WireTask): void {
  // Task notifications are 2025 wire vocabulary the SDK's typed surface leaves out.
  const notification = { method: 'notifications/tasks/status', params: { ...task } };
  client.notification(notification).catch(() => undefined);
}
