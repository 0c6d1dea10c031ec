import { z } from 'zod';
import { ServerNameSchema } from '../../model/config.js';
import { TaskInfoSchema } from '../../model/tasks.js';

const TaskIdSchema = z.string().min(1).max(256);

// Tasks: tool calls servers run as tasks, running and recent, across conversations.
export const tasksRequests = {
  /** Every running and recent task, newest first; only one server's with `server`. */
  listTasks: {
    params: z.object({ server: ServerNameSchema.optional() }).strict(),
    result: z.array(TaskInfoSchema),
  },
  /** tasks/cancel on the task's server; answers the task as it is after. */
  cancelTask: {
    params: z.object({ server: ServerNameSchema, taskId: TaskIdSchema }).strict(),
    result: TaskInfoSchema,
  },
} as const;
