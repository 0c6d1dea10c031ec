import { onDemand } from '../../common/on-demand.js';

/**
 * This feature's on-demand components, each loaded on first use from its own
 * chunk (drawn inside <Deferred>, common/on-demand.tsx). Other features and the
 * app shell import these instead of the modules; nothing loaded from here may
 * import this file back (`node scripts/import-cycles.mjs` checks).
 */
export const TasksView = onDemand(() => import('./tasks-view.js').then((m) => m.TasksView));
export const TaskLine = onDemand(() => import('./task-line.js').then((m) => m.TaskLine));
export const StopTasksDialog = onDemand(() =>
  import('./stop-tasks-dialog.js').then((m) => m.StopTasksDialog),
);
