import { ProtocolError, ProtocolErrorCode, specTypeSchemas } from '@modelcontextprotocol/client';
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { isInterceptingClient, isModernConnection } from '../client-feature.js';
import type { ClientFeature } from '../client-feature.js';
import { installRequestTasks } from './request-task-handlers.js';
import type { TaskRequestMethod } from './request-task-handlers.js';

/** The 2026-07-28 Tasks extension (SEP-2663). */
export const TASKS_EXTENSION_ID = 'io.modelcontextprotocol/tasks';

/** A `notifications/tasks` of the extension: a whole task; only what the registry keeps is read. */
export const ExtensionStatusSchema = z.looseObject({
  taskId: z.string().max(500),
  status: z.string().max(50),
  statusMessage: z.string().optional(),
});

const TaskUpdateSchema = z.looseObject({ taskId: z.string().max(500) });

/** What a status notification tells the registry of a task. */
export interface TaskStatusUpdate {
  taskId: string;
  status: string;
  statusMessage?: string | undefined;
}

/** What the tasks feature reports to the host's task registry (servers/tasks/task-registry.ts). */
export interface TaskServices {
  /** A server's `notifications/tasks/status` (or the extension's `notifications/tasks`) for one of its tasks. */
  statusNotified(server: string, status: TaskStatusUpdate): void;
  /** One line in a server's log about its tasks. */
  warn?(server: string, line: string): void;
}

/** Which requests of a server the host runs as tasks when asked (those it answers at all). */
export interface RequestTaskKinds {
  readonly sampling?: boolean | undefined;
  readonly elicitation?: boolean | undefined;
}

/**
 * Tasks (2025-11-25), both directions.
 *
 * The host as requestor: the client declares `tasks`, so a server may run
 * a tool call as a task for it, and it listens to the server's status
 * notifications, which wake the poller of that task early. The calls
 * themselves (tools/call with task metadata, tasks/get, tasks/result,
 * tasks/cancel) are made by servers/tasks/task-call.ts.
 *
 * The host as receiver: where the host answers sampling or elicitation,
 * it declares `tasks.requests` for them (and `tasks.list`, `tasks.cancel`),
 * so a server may ask it to run such a request as a task
 * (request-task-handlers.ts).
 *
 * 2026-07-28: the `io.modelcontextprotocol/tasks` extension is declared in
 * every request's capabilities (never in the 2025 handshake); a server that
 * declares it too may answer any tool call with a task, followed by
 * servers/tasks/task-extension.ts. Its `notifications/tasks` wake that
 * follower like the 2025 status notification.
 */
export function tasksFeature(services: TaskServices, kinds: RequestTaskKinds = {}): ClientFeature {
  const methods: TaskRequestMethod[] = [
    ...(kinds.sampling === true ? (['sampling/createMessage'] as const) : []),
    ...(kinds.elicitation === true ? (['elicitation/create'] as const) : []),
  ];
  return {
    name: 'tasks',
    capabilities: tasksCapability(kinds),
    modernExtensions: { [TASKS_EXTENSION_ID]: {} },
    install(client, context) {
      client.setNotificationHandler('notifications/tasks', { params: ExtensionStatusSchema }, (params) => {
        services.statusNotified(context.server, params);
      });
      client.setNotificationHandler(
        'notifications/tasks/status',
        { params: specTypeSchemas.TaskStatusNotificationParams },
        (params) => {
          services.statusNotified(context.server, params);
        },
      );
      // Status notifications come hundreds a second while many tasks run: read by hand first,
      // with the checks of the schemas above; what these leave goes to the handlers above.
      if (isInterceptingClient(client)) {
        const take = (status: TaskStatusUpdate | undefined): boolean => {
          if (status) services.statusNotified(context.server, status);
          return status !== undefined;
        };
        client.readNotificationFirst('notifications/tasks', (params) => take(readExtensionStatus(params)));
        // A 2025-11-25 method: on a 2026-07-28 connection the SDK drops it, so it goes there.
        client.readNotificationFirst(
          'notifications/tasks/status',
          (params) => !isModernConnection(client) && take(readTaskStatus(params)),
        );
      }
      installRequestTasks(client, context, methods);
      // The host runs no task a server could update (tasks/update is the 2026-07-28
      // extension's, client to server): one line in the server's log, and an error.
      client.setRequestHandler('tasks/update', { params: TaskUpdateSchema }, (params) => {
        services.warn?.(
          context.server,
          `[host] refused a tasks/update for task "${params.taskId.slice(0, 80)}", which the host does not know`,
        );
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Failed to retrieve task: Task not found');
      });
    },
  };
}

function tasksCapability(kinds: RequestTaskKinds): ClientCapabilities {
  if (kinds.sampling !== true && kinds.elicitation !== true) return { tasks: {} };
  return {
    tasks: {
      list: {},
      cancel: {},
      requests: {
        ...(kinds.sampling === true ? { sampling: { createMessage: {} } } : {}),
        ...(kinds.elicitation === true ? { elicitation: { create: {} } } : {}),
      },
    },
  };
}

const TASK_STATES = new Set(['working', 'input_required', 'completed', 'failed', 'cancelled']);

/** The params of a 2025-11-25 `notifications/tasks/status`, checked as the SDK's TaskStatusNotificationParams would. */
export function readTaskStatus(params: Readonly<Record<string, unknown>>): TaskStatusUpdate | undefined {
  const { taskId, status, statusMessage, ttl, createdAt, lastUpdatedAt, pollInterval } = params;
  if (typeof taskId !== 'string' || typeof status !== 'string' || !TASK_STATES.has(status)) return undefined;
  if (typeof createdAt !== 'string' || typeof lastUpdatedAt !== 'string') return undefined;
  if (ttl !== null && typeof ttl !== 'number') return undefined;
  if (pollInterval !== undefined && typeof pollInterval !== 'number') return undefined;
  if (statusMessage !== undefined && typeof statusMessage !== 'string') return undefined;
  return { taskId, status, statusMessage };
}

/** The params of the extension's `notifications/tasks`, checked as ExtensionStatusSchema would. */
export function readExtensionStatus(params: Readonly<Record<string, unknown>>): TaskStatusUpdate | undefined {
  const { taskId, status, statusMessage } = params;
  if (typeof taskId !== 'string' || taskId.length > 500) return undefined;
  if (typeof status !== 'string' || status.length > 50) return undefined;
  if (statusMessage !== undefined && typeof statusMessage !== 'string') return undefined;
  return { taskId, status, statusMessage };
}
