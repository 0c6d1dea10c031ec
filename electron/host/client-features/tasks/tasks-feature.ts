import { specTypeSchemas } from '@modelcontextprotocol/client';
import type { ClientFeature } from '../client-feature.js';

/** What the tasks feature reports to the host's task registry (servers/tasks/task-registry.ts). */
export interface TaskServices {
  /** A server's `notifications/tasks/status` for one of its tasks. */
  statusNotified(
    server: string,
    status: { taskId: string; status: string; statusMessage?: string | undefined },
  ): void;
}

/**
 * Tasks (2025-11-25): the client declares `tasks`, so a server may run a
 * tool call as a task for it, and it listens to the server's status
 * notifications, which wake the poller of that task early. The calls
 * themselves (tools/call with task metadata, tasks/get, tasks/result,
 * tasks/cancel) are made by servers/tasks/task-call.ts.
 *
 * Not declared yet: `tasks.requests` (the server asking the client to run
 * sampling or elicitation as a task; such a request is answered at once,
 * which servers accept) and the 2026-07-28 `io.modelcontextprotocol/tasks`
 * extension.
 */
export function tasksFeature(services: TaskServices): ClientFeature {
  return {
    name: 'tasks',
    capabilities: { tasks: {} },
    install(client, context) {
      client.setNotificationHandler(
        'notifications/tasks/status',
        { params: specTypeSchemas.TaskStatusNotificationParams },
        (params) => {
          services.statusNotified(context.server, params);
        },
      );
    },
  };
}
