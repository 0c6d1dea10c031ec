/**
 * Task states and keys without zod, for the renderer's first screen
 * (shared/model/tasks.ts has the schemas).
 */
export type TaskState = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled' | 'lost';

/** The states after which nothing changes any more. */
export const FINAL_TASK_STATES: readonly TaskState[] = ['completed', 'failed', 'cancelled', 'lost'];

export function isFinalTaskState(state: TaskState): boolean {
  return FINAL_TASK_STATES.includes(state);
}

/** The key of a task in the host: server and task id. */
export function taskKey(task: { server: string; taskId: string }): string {
  return `${task.server}\u0000${task.taskId}`;
}
