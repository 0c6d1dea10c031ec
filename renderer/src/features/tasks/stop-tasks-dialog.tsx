import { useEffect, useId, useRef, useState } from 'react';
import { Modal } from '../../common/modal.js';
import { Spinner } from '../../common/spinner.js';
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
  const headingId = useId();
  const descriptionId = useId();
  const keepRef = useRef<HTMLButtonElement>(null);
  const all = useTasks((s) => s.tasks);
  const cancel = useTasks((s) => s.actions.cancel);
  const [running] = useState(() =>
    Object.values(all).filter(
      (t) => t.toolCallId !== undefined && toolCallIds.includes(t.toolCallId) && !isFinalTaskState(t.status),
    ),
  );
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  useEffect(() => {
    if (running.length === 0) onClose();
  }, [running, onClose]);
  if (running.length === 0) return null;
  const n = running.length;

  const cancelAll = async () => {
    setBusy(true);
    const results = await Promise.all(running.map((t) => cancel(t.server, t.taskId)));
    setBusy(false);
    const failure = results.flatMap((r) => (r.ok ? [] : [r.error.message]))[0];
    if (failure !== undefined) setError(failure);
    else onClose();
  };

  return (
    <Modal
      labelledBy={headingId}
      describedBy={descriptionId}
      onClose={onClose}
      initialFocus={keepRef}
      role="alertdialog"
    >
      <div className="modal__content">
        <header className="modal__header">
          <h2 id={headingId}>{`Cancel ${String(n)} running task${n === 1 ? '' : 's'}?`}</h2>
        </header>
        <div className="modal__body">
          <p id={descriptionId} className="modal__text">
            Claude stopped answering.{' '}
            {n === 1 ? 'A task this turn started is' : 'Tasks this turn started are'} still running (
            {running.map((t) => t.tool).join(', ')}). Kept running, {n === 1 ? 'its result' : 'each result'}{' '}
            comes back to this conversation when it is ready.
          </p>
          {error !== undefined && (
            <div className="inline-alert" role="alert">
              {error}
            </div>
          )}
        </div>
        <footer className="modal__footer">
          <button ref={keepRef} type="button" className="btn" onClick={onClose}>
            Keep running
          </button>
          <button
            type="button"
            className="btn btn--danger"
            disabled={busy}
            onClick={() => {
              void cancelAll();
            }}
          >
            {busy && <Spinner />}
            Cancel tasks
          </button>
        </footer>
      </div>
    </Modal>
  );
}
