import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { isFinalTaskState, taskKey } from '../../../../shared/model/tasks.js';
import type { TaskInfo } from '../../../../shared/model/tasks.js';
import { HostError, describeError } from '../../errors.js';
import { cancelTask, followTask } from './task-call.js';
import type { TaskLimits } from './task-call.js';
import type { TaskRegistry } from './task-registry.js';

export interface TaskServiceOptions {
  registry: TaskRegistry;
  /** The connected SDK client of a server, if it is connected. */
  clientOf: (server: string) => Client | undefined;
  limits?: TaskLimits | undefined;
  /** A resumed task ended with a result (after a restart: no caller is waiting for it). */
  onResumedResult?: ((task: TaskInfo, result: CallToolResult) => void) | undefined;
  /** A resumed task ended without one (failed, cancelled, lost, past its ttl): its one line. */
  onResumedFailure?: ((task: TaskInfo, line: string) => void) | undefined;
  onWarning?: ((server: string, line: string) => void) | undefined;
}

/**
 * What the host does with tasks beyond one call: list them (Tasks panel,
 * CLI), cancel one, and after a restart (or a reconnect) follow the tasks a
 * server was still running, so results still available are delivered and a
 * task the server forgot is marked lost with one line, never retried.
 */
export class TaskService {
  private readonly resumed = new Set<string>();
  private readonly results = new Map<string, CallToolResult>();

  constructor(private readonly options: TaskServiceOptions) {}

  async list(server?: string): Promise<TaskInfo[]> {
    await this.options.registry.load();
    return this.options.registry.list(server);
  }

  /** The result of a task that was resumed and completed, while this host runs. */
  resultOf(server: string, taskId: string): CallToolResult | undefined {
    return this.results.get(taskKey({ server, taskId }));
  }

  async cancel(server: string, taskId: string): Promise<TaskInfo> {
    await this.options.registry.load();
    const task = this.options.registry.get(server, taskId);
    if (!task) throw new HostError('not_found', `The host knows no task "${taskId}" of server "${server}"`);
    if (isFinalTaskState(task.status)) return task;
    const client = this.options.clientOf(server);
    if (!client) throw new HostError('not_connected', `Server "${server}" is not connected`);
    await cancelTask(client, this.options.registry, server, taskId).catch((error: unknown) => {
      this.options.onWarning?.(server, `[host] tasks/cancel failed: ${describeError(error)}`);
    });
    return this.options.registry.get(server, taskId) ?? task;
  }

  /**
   * Follows the server's unfinished tasks that no call in this host is
   * waiting for (after a restart). A task whose end a conversation still
   * waits for (delivery "pending") is followed even when it ended: a
   * completed one has its result fetched again, another one's line is
   * handed on as it is.
   */
  async resume(server: string): Promise<void> {
    const stored = await this.options.registry.load();
    const client = this.options.clientOf(server);
    if (!client) return;
    for (const task of stored) {
      const key = taskKey(task);
      if (task.server !== server || this.resumed.has(key)) continue;
      const current = this.options.registry.get(server, task.taskId);
      if (!current) continue;
      const undelivered = current.delivery === 'pending';
      if (isFinalTaskState(current.status) && !undelivered) continue;
      this.resumed.add(key);
      if (isFinalTaskState(current.status) && current.status !== 'completed') {
        this.options.onResumedFailure?.(
          current,
          current.statusMessage ?? `Task "${task.taskId}" ${current.status}`,
        );
        continue;
      }
      void followTask(client, this.options.registry, server, task.taskId, {
        limits: this.options.limits,
      }).then(
        (result) => {
          this.results.set(key, result);
          this.options.onResumedResult?.(current, result);
        },
        (error: unknown) => {
          this.options.onResumedFailure?.(
            current,
            error instanceof HostError ? error.message : describeError(error),
          );
        },
      );
    }
  }
}
