import type { ToolUseChatBlock } from '../../../shared/model/chat.js';
import type { ToolCallResult } from '../../../shared/model/server.js';
import type { TaskInfo } from '../../../shared/model/tasks.js';
import type { ProgressUpdate } from '../servers/lifecycle/request-policy.js';
import type { ServerConnection } from '../servers/server-connection.js';
import { LatestThrottle } from '../latest-throttle.js';

/** How a turn's tool call went: its result, or a task that runs on (`call` settles at its end). */
export type CallOutcome =
  | { kind: 'result'; result: ToolCallResult }
  | { kind: 'task'; task: TaskInfo; call: Promise<ToolCallResult> };

/**
 * Calls a tool for a turn. Stop (the turn's signal) cancels the call until
 * the server answers with a task; from then on the task belongs to the
 * host, not to the turn: it is answered at once (`kind: "task"`) and Stop
 * no longer cancels it (the person is asked instead). With `detach` false
 * the turn waits for the task's end as for any call.
 */
export async function callUntilTask(
  connection: ServerConnection,
  use: ToolUseChatBlock,
  turn: { conversationId: string; signal: AbortSignal },
  detach: boolean,
  options: { onProgress: (update: ProgressUpdate) => void },
): Promise<CallOutcome> {
  // Progress is passed on at most ten times a second, the latest each time.
  const progress = new LatestThrottle<ProgressUpdate>(options.onProgress);
  try {
    return await call(connection, use, turn, detach, (p) => {
      progress.push(p);
    });
  } finally {
    progress.cancel();
  }
}

/** A progress notification as a tool call update carries it. */
export function progressOf(p: ProgressUpdate): { progress: number; total?: number; message?: string } {
  return {
    progress: p.progress,
    ...(p.total !== undefined ? { total: p.total } : {}),
    ...(p.message !== undefined ? { message: p.message } : {}),
  };
}

async function call(
  connection: ServerConnection,
  use: ToolUseChatBlock,
  turn: { conversationId: string; signal: AbortSignal },
  detach: boolean,
  onProgress: (update: ProgressUpdate) => void,
): Promise<CallOutcome> {
  const origin = { conversationId: turn.conversationId, toolCallId: use.id };
  if (!detach) {
    const result = await connection.callTool(use.tool, use.inputJson, {
      signal: turn.signal,
      origin,
      onProgress,
    });
    return { kind: 'result', result };
  }
  const controller = new AbortController();
  const stop = (): void => {
    controller.abort();
  };
  if (turn.signal.aborted) controller.abort();
  else turn.signal.addEventListener('abort', stop, { once: true });
  let becameTask: (task: TaskInfo) => void = () => undefined;
  const task = new Promise<TaskInfo>((resolve) => {
    becameTask = resolve;
  });
  const pending = connection.callTool(use.tool, use.inputJson, {
    signal: controller.signal,
    origin,
    onProgress,
    onTask: (created) => {
      turn.signal.removeEventListener('abort', stop);
      becameTask(created);
    },
  });
  try {
    return await Promise.race([
      pending.then((result): CallOutcome => ({ kind: 'result', result })),
      task.then((created): CallOutcome => ({ kind: 'task', task: created, call: pending })),
    ]);
  } finally {
    turn.signal.removeEventListener('abort', stop);
  }
}

/** What Claude reads as the tool call's result when the call became a task. */
export function taskStartedText(task: TaskInfo, toolUseId: string): string {
  return (
    `The tool "${task.tool}" of server "${task.server}" started task "${task.taskId}", which runs in the background. ` +
    `Its result will arrive in a later message of this conversation, marked as the result of tool call ${toolUseId}. ` +
    'Until then, tell the user it is running and carry on with anything else.'
  );
}
