import { randomUUID } from 'node:crypto';
import { ProtocolError, ProtocolErrorCode, RELATED_TASK_META_KEY } from '@modelcontextprotocol/client';
import type { Result } from '@modelcontextprotocol/client';
import { describeError, oneLine } from '../../errors.js';

/** How many unfinished tasks one server may have the host run for it at once. */
export const MAX_RUNNING_REQUEST_TASKS = 8;
/** How many tasks (finished ones included, until their ttl) the host keeps for one server. */
export const MAX_KEPT_REQUEST_TASKS = 64;
/** The ttl when the server asks for none, and the bounds of one it asks for. */
export const DEFAULT_REQUEST_TASK_TTL_MS = 10 * 60_000;
const MIN_TTL_MS = 1000;
const MAX_TTL_MS = 60 * 60_000;
/** What the server is told to poll at. */
const POLL_INTERVAL_MS = 1000;
/** tasks/list page size. */
const PAGE_SIZE = 50;

/**
 * A task as the 2025-11-25 wire carries it (the SDK keeps its own type only
 * for interoperability, marked deprecated).
 */
export interface WireTask {
  taskId: string;
  status: 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
  statusMessage?: string;
  /** ISO 8601. */
  createdAt: string;
  lastUpdatedAt: string;
  /** Milliseconds from creation; the task and its result are dropped after it. */
  ttl: number;
  pollInterval?: number;
}

export interface RequestTaskOptions {
  /** The server's name (error lines name it). */
  server: string;
  /** Sends `notifications/tasks/status` for a task whose status changed. */
  notify: (task: WireTask) => void;
  maxRunning?: number | undefined;
  maxKept?: number | undefined;
}

interface Entry {
  task: WireTask;
  /** The request the task runs (a method name: log lines, tests). */
  readonly method: string;
  readonly abort: AbortController;
  readonly expiry: NodeJS.Timeout;
  /** Settles once the task is terminal: the result, or the error the plain request would have answered. */
  readonly done: Promise<Result>;
}

const TERMINAL = new Set<WireTask['status']>(['completed', 'failed', 'cancelled']);

/**
 * The tasks one server asked this host to run (2025-11-25, the client as
 * receiver: `sampling/createMessage` or `elicitation/create` with task
 * metadata). One store per connection, so a task id of one server is
 * unknown to every other server: looking it up from another connection
 * gives the same "not found" as an id that never existed.
 *
 * A task runs the same handler the plain request would (consent, dialogs,
 * Claude); the store only keeps its status and result for the server's
 * tasks/get, tasks/result, tasks/list and tasks/cancel. A task and its
 * result are dropped when its ttl ends (a task still running then is
 * aborted, which withdraws its dialog).
 */
export class RequestTaskStore {
  private readonly entries = new Map<string, Entry>();
  private readonly maxRunning: number;
  private readonly maxKept: number;
  private closed = false;

  constructor(private readonly options: RequestTaskOptions) {
    this.maxRunning = options.maxRunning ?? MAX_RUNNING_REQUEST_TASKS;
    this.maxKept = options.maxKept ?? MAX_KEPT_REQUEST_TASKS;
  }

  /**
   * Creates a task for `method` and starts `run` in the background; returns
   * the task at once (status `working`). Refuses with a JSON-RPC error when
   * the server already has its limit of unfinished tasks.
   */
  create(
    method: string,
    requestedTtl: number | undefined,
    run: (signal: AbortSignal) => Promise<Result>,
  ): WireTask {
    if (this.closed) throw new ProtocolError(ProtocolErrorCode.InternalError, 'The connection is closing');
    const running = [...this.entries.values()].filter((e) => !TERMINAL.has(e.task.status)).length;
    if (running >= this.maxRunning) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidRequest,
        `Too many tasks: server "${this.options.server}" already has ${String(running)} sampling or elicitation tasks running on this host (the limit is ${String(this.maxRunning)})`,
      );
    }
    this.dropOldestFinished();
    const ttl = Math.min(MAX_TTL_MS, Math.max(MIN_TTL_MS, requestedTtl ?? DEFAULT_REQUEST_TASK_TTL_MS));
    const now = new Date().toISOString();
    const taskId = randomUUID();
    const task: WireTask = {
      taskId,
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttl,
      pollInterval: POLL_INTERVAL_MS,
    };
    const abort = new AbortController();
    const expiry = setTimeout(() => {
      this.expire(taskId);
    }, ttl);
    expiry.unref();
    const done = Promise.resolve()
      .then(() => run(abort.signal))
      .then(
        (result) => {
          this.settle(taskId, 'completed');
          return result;
        },
        (error: unknown) => {
          this.settle(taskId, 'failed', errorLine(error));
          throw error;
        },
      );
    // Nobody may ever ask for the result: its rejection is still handled.
    done.catch(() => undefined);
    this.entries.set(taskId, { task, method, abort, expiry, done });
    return { ...task };
  }

  /** tasks/get: the task as it is now. */
  get(taskId: string): WireTask {
    return { ...this.entry(taskId).task };
  }

  /**
   * tasks/result: waits until the task is terminal, then answers what the
   * plain request would have (its result, or its error), tagged with the task.
   */
  async result(taskId: string): Promise<Result> {
    const entry = this.entry(taskId);
    let result: Result;
    try {
      result = await Promise.race([entry.done, this.cancelledOrExpired(entry)]);
    } catch (error) {
      if (error instanceof ProtocolError) throw error;
      throw new ProtocolError(ProtocolErrorCode.InternalError, errorLine(error));
    }
    return { ...result, _meta: { ...result._meta, [RELATED_TASK_META_KEY]: { taskId } } };
  }

  /** tasks/list: the server's tasks, oldest first, a page at a time. */
  list(cursor: string | undefined): { tasks: WireTask[]; nextCursor?: string } {
    const all = [...this.entries.values()].map((e) => ({ ...e.task }));
    const start = cursor === undefined ? 0 : Number.parseInt(cursor, 10);
    if (!Number.isInteger(start) || start < 0 || String(start) !== (cursor ?? '0')) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid cursor');
    }
    const tasks = all.slice(start, start + PAGE_SIZE);
    return start + PAGE_SIZE < all.length ? { tasks, nextCursor: String(start + PAGE_SIZE) } : { tasks };
  }

  /** tasks/cancel: aborts the work (a dialog is withdrawn) and marks the task cancelled. */
  cancel(taskId: string): WireTask {
    const entry = this.entry(taskId);
    if (TERMINAL.has(entry.task.status)) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Cannot cancel task: it is already ${entry.task.status}`,
      );
    }
    this.settle(taskId, 'cancelled', 'Cancelled by the server');
    entry.abort.abort();
    return { ...entry.task };
  }

  /** The number of tasks kept now (tests, the log). */
  get size(): number {
    return this.entries.size;
  }

  /** The connection closed: every task is aborted and forgotten. */
  close(): void {
    this.closed = true;
    for (const [taskId, entry] of this.entries) {
      clearTimeout(entry.expiry);
      this.entries.delete(taskId);
      entry.abort.abort();
    }
  }

  private entry(taskId: string): Entry {
    const entry = this.entries.get(taskId);
    if (!entry)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Failed to retrieve task: Task not found');
    return entry;
  }

  private settle(taskId: string, status: WireTask['status'], statusMessage?: string): void {
    const entry = this.entries.get(taskId);
    if (!entry || TERMINAL.has(entry.task.status)) return;
    entry.task = {
      ...entry.task,
      status,
      lastUpdatedAt: new Date().toISOString(),
      ...(statusMessage !== undefined ? { statusMessage } : {}),
    };
    this.options.notify({ ...entry.task });
  }

  /** Its ttl ended: the task and its result are dropped; a running one is aborted. */
  private expire(taskId: string): void {
    const entry = this.entries.get(taskId);
    if (!entry) return;
    this.entries.delete(taskId);
    entry.abort.abort();
  }

  /** Rejects when the task is cancelled or dropped before its work settles. */
  private cancelledOrExpired(entry: Entry): Promise<never> {
    return new Promise((_resolve, reject) => {
      const check = (): void => {
        if (entry.task.status === 'cancelled') {
          reject(new ProtocolError(ProtocolErrorCode.InvalidRequest, 'Task was cancelled'));
        } else if (!this.entries.has(entry.task.taskId)) {
          reject(new ProtocolError(ProtocolErrorCode.InvalidParams, 'Task has expired'));
        }
      };
      check();
      entry.abort.signal.addEventListener('abort', check, { once: true });
    });
  }

  /** Past the limit of kept tasks, the oldest finished ones go first. */
  private dropOldestFinished(): void {
    for (const [taskId, entry] of this.entries) {
      if (this.entries.size < this.maxKept) return;
      if (!TERMINAL.has(entry.task.status)) continue;
      clearTimeout(entry.expiry);
      this.entries.delete(taskId);
    }
  }
}

function errorLine(error: unknown): string {
  return oneLine(describeError(error), 500);
}
