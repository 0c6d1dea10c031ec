import { useTasks } from './tasks-context.js';
import { CancelTaskButton, TaskElapsed, TaskStatusBadge, taskMessage } from './task-parts.js';

/**
 * Under a tool card whose call runs as a task: its status, the server's
 * status message, progress, elapsed time and Cancel. Nothing for a plain call.
 */
export function TaskLine({ toolCallId }: { toolCallId: string }) {
  const task = useTasks((s) => Object.values(s.tasks).find((t) => t.toolCallId === toolCallId));
  if (!task) return null;
  return (
    <div className="task-line" role="status" aria-label={`Task of ${task.tool}`}>
      <span className="task-line__label">Task</span>
      <TaskStatusBadge task={task} />
      {task.progress !== undefined && (
        <progress value={task.progress} max={task.total} aria-label={`Progress of ${task.tool}`} />
      )}
      <span className="task-line__message">{taskMessage(task)}</span>
      <TaskElapsed task={task} />
      <CancelTaskButton task={task} />
    </div>
  );
}
