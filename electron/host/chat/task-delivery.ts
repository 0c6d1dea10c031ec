import type { TaskResultChatBlock } from '../../../shared/model/chat.js';
import type { ToolCallResult } from '../../../shared/model/server.js';
import { isFinalTaskState, taskKey } from '../../../shared/model/tasks.js';
import type { TaskInfo } from '../../../shared/model/tasks.js';
import { HostError, describeError, oneLine } from '../errors.js';
import type { StoredFullResult } from '../persistence/conversation-store.js';
import type { TaskRegistry } from '../servers/tasks/task-registry.js';
import { capContent } from './tool-result-mapping.js';

/** How a task ended: its result, or one line saying why there is none. */
export type TaskEnd = { kind: 'result'; result: ToolCallResult } | { kind: 'error'; line: string };

/** What a conversation does with a task's end (ChatService.continueWithTaskResult). */
export type TaskResultSink = (
  conversationId: string,
  block: TaskResultChatBlock,
  full: StoredFullResult[],
  committed: () => void,
) => Promise<void>;

export interface TaskDeliveryOptions {
  registry: TaskRegistry;
  deliver: TaskResultSink;
  onWarning?: ((server: string, line: string) => void) | undefined;
}

/**
 * Brings the end of a task a chat turn did not wait for back to its
 * conversation: a message with the result (or why there is none) and a new
 * turn, so Claude continues. Deliveries to one conversation go one after
 * another; each task is delivered once: its record says "pending" until the
 * message is committed, then "delivered" (a restart in between delivers it
 * then, see TaskService.resume).
 */
export class TaskDelivery {
  private disposed = false;
  private readonly queued = new Set<string>();
  private readonly chains = new Map<string, Promise<void>>();

  constructor(private readonly options: TaskDeliveryOptions) {}

  /** A call of a chat turn became a task: `call` settles when the task ends. */
  follow(task: TaskInfo, call: Promise<ToolCallResult>): void {
    this.options.registry.setDelivery(task.server, task.taskId, 'pending');
    call.then(
      (result) => {
        this.ended(task, { kind: 'result', result });
      },
      (error: unknown) => {
        this.ended(task, {
          kind: 'error',
          line: error instanceof HostError ? error.message : describeError(error),
        });
      },
    );
  }

  /** A task ended (followed live, or resumed after a restart); delivered unless it was already. */
  ended(task: TaskInfo, end: TaskEnd): void {
    if (this.disposed) return;
    const { registry } = this.options;
    const key = taskKey(task);
    const current = registry.get(task.server, task.taskId) ?? task;
    if (current.conversationId === undefined || current.toolCallId === undefined) return;
    if (current.delivery !== 'pending' || this.queued.has(key)) return;
    // The call failed without a verdict on the task (its server went away): that is its end here.
    if (end.kind === 'error' && !isFinalTaskState(current.status)) {
      registry.settle(task.server, task.taskId, 'failed', oneLine(end.line, 500));
    }
    const settled = registry.get(task.server, task.taskId) ?? current;
    this.queued.add(key);
    const conversationId = current.conversationId;
    const { block, full } = taskResultBlock(settled, current.toolCallId, end);
    const previous = this.chains.get(conversationId) ?? Promise.resolve();
    const next = previous.then(() => this.deliver(conversationId, settled, block, full));
    this.chains.set(conversationId, next);
    void next.finally(() => {
      if (this.chains.get(conversationId) === next) this.chains.delete(conversationId);
    });
  }

  /** Nothing is delivered from now on (the host is stopping; a restart delivers what is pending). */
  dispose(): void {
    this.disposed = true;
  }

  private async deliver(
    conversationId: string,
    task: TaskInfo,
    block: TaskResultChatBlock,
    full: StoredFullResult[],
  ): Promise<void> {
    if (this.disposed) return;
    const delivered = (): void => {
      this.options.registry.setDelivery(task.server, task.taskId, 'delivered');
    };
    try {
      await this.options.deliver(conversationId, block, full, delivered);
    } catch (error) {
      // A deleted conversation has nobody to tell: the task counts as delivered.
      if (error instanceof HostError && error.code === 'not_found') delivered();
      this.options.onWarning?.(
        task.server,
        `[host] the end of task "${task.taskId}" could not continue its conversation: ${describeError(error)}`,
      );
    }
  }
}

/** The message block of a task's end: its result capped like tool results (the full one kept aside). */
export function taskResultBlock(
  task: TaskInfo,
  toolUseId: string,
  end: TaskEnd,
): { block: TaskResultChatBlock; full: StoredFullResult[] } {
  const status =
    task.status === 'failed' || task.status === 'cancelled' || task.status === 'lost'
      ? task.status
      : 'completed';
  const base = {
    type: 'task_result' as const,
    toolUseId,
    server: task.server,
    tool: task.tool,
    taskId: task.taskId,
  };
  if (end.kind === 'error') {
    const line = task.statusMessage !== undefined && status !== 'completed' ? task.statusMessage : end.line;
    return {
      block: {
        ...base,
        status: status === 'completed' ? 'failed' : status,
        isError: true,
        content: [{ type: 'text', text: line }],
      },
      full: [],
    };
  }
  const { result } = end;
  const capped = capContent(result.content);
  const block: TaskResultChatBlock = {
    ...base,
    status: 'completed',
    isError: result.isError,
    content: capped.content,
    ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}),
    ...(capped.totalChars !== undefined ? { truncated: { totalChars: capped.totalChars } } : {}),
  };
  const full: StoredFullResult[] =
    capped.totalChars !== undefined
      ? [
          {
            toolUseId,
            content: result.content,
            ...(result.structuredContent !== undefined
              ? { structuredContent: result.structuredContent }
              : {}),
          },
        ]
      : [];
  return { block, full };
}
