import { useEffect, useState } from 'react';
import type { TaskInfo } from '../../../../shared/model/tasks.js';
import { isFinalTaskState } from '../../../../shared/model/task-state.js';
import { useTasks } from './tasks-context.js';

const STATUS_TEXT: Record<TaskInfo['status'], string> = {
  working: 'Working',
  input_required: 'Needs your input',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
  lost: 'Lost',
};

/**
 * The line shown beside the status: the server's latest message while the
 * task runs, the reason when it failed, was cancelled or lost. A completed
 * task's last progress message ("Generating report...") is no longer true.
 */
export function taskMessage(task: TaskInfo): string {
  if (task.status === 'completed')
    return task.statusMessage === COMPLETED_WITH_ERROR ? task.statusMessage : '';
  return task.statusMessage ?? '';
}
const COMPLETED_WITH_ERROR = 'Completed with an error result';

/** The task's status as a small badge. */
export function TaskStatusBadge({ task }: { task: TaskInfo }) {
  return <span className={`task-badge task-badge--${task.status}`}>{STATUS_TEXT[task.status]}</span>;
}

/** Time since the task started, ticking each second while it runs. */
export function TaskElapsed({ task }: { task: TaskInfo }) {
  const running = !isFinalTaskState(task.status);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return undefined;
    const timer = setInterval(() => {
      setNow(Date.now());
    }, 1000);
    return () => {
      clearInterval(timer);
    };
  }, [running]);
  const end = running ? now : task.updatedAt;
  return <span className="task-elapsed">{formatElapsed(Math.max(0, end - task.startedAt))}</span>;
}

/** Cancel for a running task (tasks/cancel on its server); a failure is one line next to it. */
export function CancelTaskButton({ task }: { task: TaskInfo }) {
  const cancel = useTasks((s) => s.actions.cancel);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  if (isFinalTaskState(task.status)) return null;
  return (
    <>
      <button
        type="button"
        className="btn task-cancel"
        disabled={busy}
        aria-label={`Cancel task of ${task.tool}`}
        onClick={() => {
          setBusy(true);
          void cancel(task.server, task.taskId).then((result) => {
            setBusy(false);
            setError(result.ok ? undefined : result.error.message);
          });
        }}
      >
        Cancel
      </button>
      {error !== undefined && (
        <span className="task-error" role="alert">
          {error}
        </span>
      )}
    </>
  );
}

/** Whole seconds, then minutes and seconds, then hours and minutes: "4 s", "2 min 05 s", "1 h 02 min". */
export function formatElapsed(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${String(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${String(minutes)} min ${String(seconds % 60).padStart(2, '0')} s`;
  return `${String(Math.floor(minutes / 60))} h ${String(minutes % 60).padStart(2, '0')} min`;
}
