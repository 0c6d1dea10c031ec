import { useEffect, useState } from 'react';
import { ConfirmDialog } from '../../common/confirm-dialog.js';
import type { Result } from '../../../../shared/ipc/result.js';
import { isFinalTaskState } from '../../../../shared/model/task-state.js';
import { useTasks } from './tasks-context.js';

/**
 * After Stop on a turn whose tool calls started tasks that still run: asks
 * whether to cancel them too ("Keep running" has the focus, so Enter and Esc
 * keep them). Closes at once when none of them runs.
 */
export function StopTasksDialog({
  toolCallIds,
  onClose,
}: {
  toolCallIds: readonly string[];
  onClose: () => void;
}) {
  const all = useTasks((s) => s.tasks);
  const cancel = useTasks((s) => s.actions.cancel);
  const [running] = useState(() =>
    Object.values(all).filter(
      (t) => t.toolCallId !== undefined && toolCallIds.includes(t.toolCallId) && !isFinalTaskState(t.status),
    ),
  );
  useEffect(() => {
    if (running.length === 0) onClose();
  }, [running, onClose]);
  if (running.length === 0) return null;
  const n = running.length;

  /** Every one is asked to cancel; the first refusal stays in the dialog. */
  const cancelAll = async (): Promise<Result<unknown>> => {
    const results = await Promise.all(running.map((t) => cancel(t.server, t.taskId)));
    return results.find((r) => !r.ok) ?? { ok: true, value: null };
  };

  return (
    <ConfirmDialog
      title={`Cancel ${String(n)} running task${n === 1 ? '' : 's'}?`}
      description={
        <>
          Claude stopped answering. {n === 1 ? 'A task this turn started is' : 'Tasks this turn started are'}{' '}
          still running ({running.map((t) => t.tool).join(', ')}). Kept running,{' '}
          {n === 1 ? 'its result' : 'each result'} comes back to this conversation when it is ready.
        </>
      }
      confirmLabel="Cancel tasks"
      cancelLabel="Keep running"
      onConfirm={cancelAll}
      onClose={onClose}
    />
  );
}
