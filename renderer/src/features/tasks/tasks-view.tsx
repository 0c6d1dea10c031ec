import { useId } from 'react';
import { useChat, useChatActions } from '../chat/chat-context.js';
import { useTasks } from './tasks-context.js';
import { sortedTasks } from './tasks-store.js';
import { CancelTaskButton, TaskElapsed, TaskStatusBadge, taskMessage } from './task-parts.js';
import { isFinalTaskState } from '../../../../shared/model/task-state.js';
import type { TaskInfo } from '../../../../shared/model/tasks.js';

/**
 * The Tasks panel: every running and recent task across servers and
 * conversations, running ones first, each with its status, the server's
 * message, elapsed time, Cancel and the way to its conversation.
 */
export function TasksView() {
  const titleId = useId();
  const all = useTasks((s) => s.tasks);
  const tasks = sortedTasks(all);
  const running = tasks.filter((t) => !isFinalTaskState(t.status));
  const recent = tasks.filter((t) => isFinalTaskState(t.status));
  return (
    <main className="tasks" aria-labelledby={titleId}>
      <div className="tasks__inner">
        <header className="tasks__header">
          <h1 id={titleId} className="tasks__title">
            Tasks
          </h1>
          <p className="muted">
            Long-running tool calls servers run as tasks. You can keep chatting while they run.
          </p>
        </header>
        <TaskSection title="Running" tasks={running} empty="No task is running." />
        <TaskSection title="Recent" tasks={recent} empty="No finished tasks yet." />
      </div>
    </main>
  );
}

function TaskSection({ title, tasks, empty }: { title: string; tasks: TaskInfo[]; empty: string }) {
  const headingId = useId();
  return (
    <section className="tasks__section" aria-labelledby={headingId}>
      <h2 id={headingId} className="tasks__section-title">
        {title} <span className="muted">({tasks.length})</span>
      </h2>
      {tasks.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <ul className="tasks__list">
          {tasks.map((task) => (
            <TaskRow key={`${task.server}/${task.taskId}`} task={task} />
          ))}
        </ul>
      )}
    </section>
  );
}

function TaskRow({ task }: { task: TaskInfo }) {
  const conversation = useChat((s) =>
    task.conversationId === undefined ? undefined : s.conversations.find((c) => c.id === task.conversationId),
  );
  const { selectConversation, setView } = useChatActions();
  return (
    <li className="tasks__row">
      <div className="tasks__row-main">
        <TaskStatusBadge task={task} />
        <span className="tasks__tool">{task.tool}</span>
        <span className="muted">on {task.server}</span>
        <TaskElapsed task={task} />
        <CancelTaskButton task={task} />
      </div>
      {taskMessage(task) !== '' && <p className="tasks__message">{taskMessage(task)}</p>}
      <div className="tasks__meta muted">
        <span className="mono">{task.taskId}</span>
        {conversation && (
          <button
            type="button"
            className="tasks__open"
            onClick={() => {
              selectConversation(conversation.id);
              setView('chat');
            }}
          >
            In “{conversation.title || 'Untitled'}”
          </button>
        )}
      </div>
    </li>
  );
}
