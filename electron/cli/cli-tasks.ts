import type { Host } from '../host/host-types.js';
import type { HostRequests } from '../../shared/ipc/host-api.js';
import type { EventPayload } from '../../shared/ipc/contract.js';
import type { ToolCallResult } from '../../shared/model/server.js';
import type { Result } from '../../shared/ipc/result.js';
import type { TaskInfo } from '../../shared/model/tasks.js';
import { terminalSafe } from '../../shared/text/invisible.js';

/** One status line of a task, for stderr: `task <id>: working: Gathering sources...`. */
export function taskLine(task: TaskInfo): string {
  const message = task.statusMessage !== undefined ? `: ${task.statusMessage}` : '';
  return terminalSafe(`task ${task.taskId}: ${task.status.replace('_', ' ')}${message}`, {
    singleLine: true,
  });
}

/**
 * `mcp-host call` on a tool that runs as a task: each new status line of the
 * task goes to stderr while the call waits, and Ctrl+C cancels the task on
 * the server (tasks/cancel) instead of leaving it running; the call then
 * ends as cancelled. A plain call is unaffected (no task, no lines).
 */
export async function callWatchingTasks(
  host: Host,
  api: HostRequests,
  request: { server: string; tool: string; argumentsJson: string },
): Promise<Result<ToolCallResult>> {
  let current: TaskInfo | undefined;
  let lastLine = '';
  const stopWatching = host.onEvent((event, payload) => {
    if (event !== 'tasksChanged') return;
    for (const task of payload as EventPayload<'tasksChanged'>) {
      if (task.server !== request.server) continue;
      current = task;
      const line = taskLine(task);
      if (line === lastLine) continue;
      lastLine = line;
      process.stderr.write(`${line}\n`);
    }
  });
  let interrupted = false;
  const onInterrupt = (): void => {
    if (interrupted || !current) process.exit(130);
    interrupted = true;
    process.stderr.write('Cancelling the task (Ctrl+C again to quit at once)…\n');
    void api.cancelTask({ server: request.server, taskId: current.taskId });
  };
  process.on('SIGINT', onInterrupt);
  try {
    return await api.callTool(request);
  } finally {
    process.off('SIGINT', onInterrupt);
    stopWatching();
  }
}

/** `mcp-host tasks [server]`: running and recent tasks, newest first. */
export function printTasks(tasks: TaskInfo[], json: boolean): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(tasks, null, 2)}\n`);
    return;
  }
  if (tasks.length === 0) {
    process.stdout.write('No tasks.\n');
    return;
  }
  for (const task of tasks) {
    const started = new Date(task.startedAt).toISOString().replace('T', ' ').slice(0, 19);
    const message = task.statusMessage !== undefined ? `  ${task.statusMessage}` : '';
    process.stdout.write(
      `${terminalSafe(
        `${task.status.padEnd(14)} ${task.server}/${task.tool}  ${task.taskId}  ${started}${message}`,
        { singleLine: true },
      )}\n`,
    );
  }
}
