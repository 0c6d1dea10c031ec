import { z } from 'zod';

/**
 * A task's state as the host shows it: the protocol's statuses, plus `lost`
 * (the server no longer knows the task, e.g. it restarted or the ttl passed).
 */
export const TaskStateSchema = z.enum([
  'working',
  'input_required',
  'completed',
  'failed',
  'cancelled',
  'lost',
]);
export { FINAL_TASK_STATES, isFinalTaskState, taskKey } from './task-state.js';
export type { TaskState } from './task-state.js';

/** One task a server runs for this host (a tool call made as a task), running or recent. */
export const TaskInfoSchema = z.object({
  /** The server's name in the configuration. */
  server: z.string(),
  /** The task id the server gave. */
  taskId: z.string(),
  /** The tool that was called. */
  tool: z.string(),
  /** The conversation and tool call it belongs to (absent for a call from the Tools view or the CLI). */
  conversationId: z.string().optional(),
  toolCallId: z.string().optional(),
  status: TaskStateSchema,
  /** The server's status message, or the host's one line for a failure or a lost task. */
  statusMessage: z.string().optional(),
  /** The last progress notification of the call, when the server sent any. */
  progress: z.number().optional(),
  total: z.number().optional(),
  /** When the host created it and last heard of it (epoch ms). */
  startedAt: z.number(),
  updatedAt: z.number(),
  /** The server's ttl (ms) and suggested poll interval (ms), when given. */
  ttlMs: z.number().optional(),
  pollIntervalMs: z.number().optional(),
  /**
   * A task a chat turn started without waiting: "pending" until its result
   * (or why there is none) is in its conversation for Claude, then "delivered".
   */
  delivery: z.enum(['pending', 'delivered']).optional(),
});
export type TaskInfo = z.infer<typeof TaskInfoSchema>;
