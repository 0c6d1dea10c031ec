import type { DomainHandlers } from '../ipc/handlers.js';
import type { TaskService } from '../servers/tasks/task-service.js';

/** The handlers of the Tasks requests. */
export function taskHandlers(tasks: TaskService): DomainHandlers<'tasks'> {
  return {
    listTasks: ({ server }) => tasks.list(server),
    cancelTask: ({ server, taskId }) => tasks.cancel(server, taskId),
  };
}
