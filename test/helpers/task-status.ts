/** The params of a valid 2025-11-25 `notifications/tasks/status` (a working task, its first tick). */
export const TASK_STATUS_PARAMS: Readonly<Record<string, unknown>> = {
  taskId: 'task-1',
  status: 'working',
  ttl: 60_000,
  createdAt: '2026-11-27T06:00:00Z',
  lastUpdatedAt: '2026-11-27T06:00:01Z',
  pollInterval: 100,
  statusMessage: 'tick 1',
};
