import { events as eventSchemas } from '../../shared/ipc/contract.js';
import type { TaskInfo } from '../../shared/model/tasks.js';
import { waitForEvent } from './host.js';
import type { TestHost } from './host.js';

/** The tasks of one event if it is a tasksChanged (checked against the contract), else undefined. */
function changedTasks(event: string, payload: unknown): TaskInfo[] | undefined {
  return event === 'tasksChanged' ? eventSchemas.tasksChanged.parse(payload) : undefined;
}

/** Every task state the host announced so far, oldest first (the tasksChanged events, one after another). */
export const taskEvents = (t: TestHost): TaskInfo[] =>
  t.events.flatMap((e) => changedTasks(e.event, e.payload) ?? []);

/** Resolves with the first announced task state that matches (from event index `from` on). */
export function waitForTask(
  t: TestHost,
  match: (task: TaskInfo) => boolean = () => true,
  what = 'a task',
  from = 0,
): Promise<TaskInfo> {
  return waitForEvent(t, (event, payload) => changedTasks(event, payload)?.find(match), what, from);
}
