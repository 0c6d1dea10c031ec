import { isFinalTaskState, taskKey } from '../../../../shared/model/tasks.js';
import type { TaskInfo } from '../../../../shared/model/tasks.js';
import { LatestThrottle } from '../../latest-throttle.js';

/** Where the registry keeps its tasks across restarts (persistence/task-records.ts). */
export interface TaskRecordSink {
  save(task: TaskInfo): void;
  list(): TaskInfo[];
  prune(): void;
}

export interface TaskRegistryOptions {
  /**
   * Tasks changed, each as it is now. A new status or an end comes at once,
   * alone; new messages only come together, at most four times a second.
   */
  onChange?: ((tasks: TaskInfo[]) => void) | undefined;
  /** The persisted records, opened on first use; absent: tasks live in memory only. */
  records?: (() => Promise<TaskRecordSink>) | undefined;
  /** One line for a server's log (a status for an unknown task). */
  onWarning?: ((server: string, line: string) => void) | undefined;
}

/**
 * How long a follower waits before it polls its task (servers/tasks/task-call.ts,
 * nextPoll): `ms`, or while the server keeps sending news, until `quiet.ms`
 * after the latest (never past `quiet.latest`, epoch ms).
 */
export interface PollWait {
  ms: number;
  quiet?: { ms: number; latest: number } | undefined;
}

/** A follower waiting for news of its task (TaskRegistry.changed). */
interface Waiter {
  /** The status changed, the time is up, or the wait was aborted. */
  readonly wake: () => void;
  /** A new message only. */
  readonly heard: () => void;
}

/** How often new status messages (same status) reach the renderer at most, all tasks together. */
const MESSAGE_INTERVAL_MS = 250;

/** How many tasks the registry keeps in memory; the oldest finished ones go first. */
const KEPT_IN_MEMORY = 500;

/**
 * Every task servers run for this host, running and recent, across servers
 * and conversations: what the Tasks panel lists, what a tool card shows and
 * what a restarted host polls again. A new status is sent and persisted at
 * once. A new message only is not persisted, and the messages of every task
 * reach the renderer together, in one event at most four times a second: 50
 * tasks reporting ten times a second cost the renderer four events a second,
 * not 200 (and a status flood the same four).
 */
export class TaskRegistry {
  private readonly tasks = new Map<string, TaskInfo>();
  /** New messages not sent yet, by task key: the latest state of each. */
  private readonly messages = new Map<string, TaskInfo>();
  /** Sends them all at once: the first after a quiet spell at once, later ones at the interval's end. */
  private readonly messageFlush = new LatestThrottle<void>(() => {
    this.sendMessages();
  }, MESSAGE_INTERVAL_MS);
  private readonly waiters = new Map<string, Set<Waiter>>();
  private loading: Promise<TaskInfo[]> | undefined;

  constructor(private readonly options: TaskRegistryOptions = {}) {}

  /**
   * The persisted tasks, read once into memory (a failed read leaves memory
   * as it is); answers those only the records knew of: tasks of an earlier
   * run, not the ones this host is following already.
   */
  load(): Promise<TaskInfo[]> {
    this.loading ??= this.readRecords();
    return this.loading;
  }

  list(server?: string): TaskInfo[] {
    const all = [...this.tasks.values()].filter((task) => server === undefined || task.server === server);
    return all.sort((a, b) => b.startedAt - a.startedAt);
  }

  get(server: string, taskId: string): TaskInfo | undefined {
    return this.tasks.get(taskKey({ server, taskId }));
  }

  /** Records a new task or a new state of one; returns what is kept. */
  put(task: TaskInfo): TaskInfo {
    const key = taskKey(task);
    const before = this.tasks.get(key);
    this.tasks.set(key, task);
    this.trim();
    if (isFinalTaskState(task.status) || before?.status !== task.status) {
      // A new status (e.g. input_required) or an end is news at once; its message waits no longer.
      if (this.messages.delete(key) && this.messages.size === 0) this.messageFlush.cancel();
      this.publish(task);
      this.wake(key);
    } else {
      // A new message only: nothing a follower acts on, but the task is as fresh as after a poll.
      this.messages.set(key, task);
      this.messageFlush.push();
      this.heard(key);
    }
    return task;
  }

  /** Changes part of a known task; undefined when the host does not know it. */
  update(
    server: string,
    taskId: string,
    patch: Partial<Omit<TaskInfo, 'server' | 'taskId'>>,
  ): TaskInfo | undefined {
    const current = this.get(server, taskId);
    if (!current) return undefined;
    // A final state stays final: a late status notification does not revive a task.
    if (isFinalTaskState(current.status) && patch.status !== undefined && patch.status !== current.status) {
      return current;
    }
    return this.put({ ...current, ...withoutUndefined(patch), updatedAt: Date.now() });
  }

  /** The host's own verdict on a task (its result, a limit, lost): replaces even a final state. */
  settle(
    server: string,
    taskId: string,
    status: TaskInfo['status'],
    statusMessage?: string,
  ): TaskInfo | undefined {
    const current = this.get(server, taskId);
    if (!current) return undefined;
    const next: TaskInfo = { ...current, status, updatedAt: Date.now() };
    if (statusMessage !== undefined) next.statusMessage = statusMessage;
    return this.put(next);
  }

  /**
   * Whether a task's end still has to reach its conversation (a chat turn
   * that did not wait for it); written to the records at once, so a restart
   * delivers it exactly once.
   */
  setDelivery(server: string, taskId: string, delivery: 'pending' | 'delivered'): TaskInfo | undefined {
    const current = this.get(server, taskId);
    if (!current) return undefined;
    const next: TaskInfo = { ...current, delivery };
    this.tasks.set(taskKey(next), next);
    this.publish(next);
    return next;
  }

  /**
   * A `notifications/tasks/status` from a server: updates the task and wakes
   * its poller. A status for a task the host does not know is one line in
   * that server's log, nothing else.
   */
  statusNotified(
    server: string,
    status: { taskId: string; status: string; statusMessage?: string | undefined },
  ): void {
    const known = this.get(server, status.taskId);
    if (!known) {
      this.options.onWarning?.(
        server,
        `[host] ignored a status for task "${status.taskId.slice(0, 80)}", which the host does not know`,
      );
      return;
    }
    const state = asTaskState(status.status);
    this.update(server, status.taskId, {
      ...(state ? { status: state } : {}),
      ...(status.statusMessage !== undefined ? { statusMessage: status.statusMessage.slice(0, 500) } : {}),
    });
  }

  /** One line in a server's log about its tasks (client-features/tasks: a tasks/update for a task the host does not know). */
  warn(server: string, line: string): void {
    this.options.onWarning?.(server, line);
  }

  /**
   * Resolves at the task's next change of status, or after `ms`. With
   * `quiet`, each new message of the task meanwhile (a status notification
   * that changed only the message) moves that end to `quiet.ms` after it,
   * never past `quiet.latest` (epoch ms): a follower the server keeps
   * telling has no reason to poll until the server goes quiet.
   */
  changed(server: string, taskId: string, { ms, quiet }: PollWait, signal?: AbortSignal): Promise<void> {
    const key = taskKey({ server, taskId });
    return new Promise((resolve) => {
      const set = this.waiters.get(key) ?? new Set<Waiter>();
      this.waiters.set(key, set);
      let timer = setTimeout(() => {
        waiter.wake();
      }, ms);
      let moved = false;
      const waiter: Waiter = {
        wake: () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', waiter.wake);
          set.delete(waiter);
          if (set.size === 0) this.waiters.delete(key);
          resolve();
        },
        heard: () => {
          if (!quiet || Date.now() + quiet.ms > quiet.latest) return;
          // The first message sets a timer of quiet.ms; later ones restart it (no new timer).
          if (moved) {
            timer.refresh();
            return;
          }
          moved = true;
          clearTimeout(timer);
          timer = setTimeout(() => {
            waiter.wake();
          }, quiet.ms);
        },
      };
      signal?.addEventListener('abort', waiter.wake, { once: true });
      set.add(waiter);
    });
  }

  private wake(key: string): void {
    for (const waiter of [...(this.waiters.get(key) ?? [])]) waiter.wake();
  }

  private heard(key: string): void {
    const waiters = this.waiters.get(key);
    if (waiters) for (const waiter of waiters) waiter.heard();
  }

  private publish(task: TaskInfo): void {
    this.options.onChange?.([task]);
    void this.persist(task);
  }

  private sendMessages(): void {
    const tasks = [...this.messages.values()];
    this.messages.clear();
    this.options.onChange?.(tasks);
  }

  private async persist(task: TaskInfo): Promise<void> {
    if (!this.options.records) return;
    try {
      const records = await this.options.records();
      records.save(task);
      if (isFinalTaskState(task.status)) records.prune();
    } catch (error) {
      this.options.onWarning?.(task.server, `[host] could not save task "${task.taskId}": ${String(error)}`);
    }
  }

  private async readRecords(): Promise<TaskInfo[]> {
    if (!this.options.records) return [];
    try {
      const stored = (await this.options.records()).list();
      const earlier: TaskInfo[] = [];
      for (const task of stored) {
        const key = taskKey(task);
        if (this.tasks.has(key)) continue;
        this.tasks.set(key, task);
        earlier.push(task);
      }
      return earlier;
    } catch {
      this.loading = undefined;
      return [];
    }
  }

  private trim(): void {
    if (this.tasks.size <= KEPT_IN_MEMORY) return;
    const finished = [...this.tasks.entries()]
      .filter(([, task]) => isFinalTaskState(task.status))
      .sort((a, b) => a[1].updatedAt - b[1].updatedAt);
    for (const [key] of finished.slice(0, this.tasks.size - KEPT_IN_MEMORY)) this.tasks.delete(key);
  }
}

const STATES = ['working', 'input_required', 'completed', 'failed', 'cancelled'] as const;

function asTaskState(value: string): (typeof STATES)[number] | undefined {
  return (STATES as readonly string[]).includes(value) ? (value as (typeof STATES)[number]) : undefined;
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  const kept: Partial<T> = {};
  for (const key of Object.keys(value) as (keyof T)[]) if (value[key] !== undefined) kept[key] = value[key];
  return kept;
}
