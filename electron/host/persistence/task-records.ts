import { TaskInfoSchema } from '../../../shared/model/tasks.js';
import type { TaskInfo } from '../../../shared/model/tasks.js';
import type { Db } from './database.js';

/** How many finished tasks are kept (the newest); running ones are always kept. */
export const KEPT_TASKS = 200;

/**
 * The tasks table: one row per task a server runs for the host, its record
 * as JSON (checked with zod on the way out: a damaged row is skipped, never
 * shown). Written on every state change, so a restarted host knows what to
 * poll again.
 */
export class TaskRecords {
  constructor(private readonly db: Db) {}

  save(task: TaskInfo): void {
    this.db
      .prepare(
        `INSERT INTO tasks (server, task_id, info, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (server, task_id) DO UPDATE SET info = excluded.info, updated_at = excluded.updated_at`,
      )
      .run(task.server, task.taskId, JSON.stringify(task), task.updatedAt);
  }

  /** Every kept task, newest first. */
  list(): TaskInfo[] {
    const rows = this.db
      .prepare<[], { info: string }>('SELECT info FROM tasks ORDER BY updated_at DESC')
      .all();
    const tasks: TaskInfo[] = [];
    for (const row of rows) {
      const parsed = TaskInfoSchema.safeParse(safeJson(row.info));
      if (parsed.success) tasks.push(parsed.data);
    }
    return tasks;
  }

  /** Forgets the oldest finished tasks beyond `keep`. */
  prune(keep = KEPT_TASKS): void {
    this.db
      .prepare(
        `DELETE FROM tasks WHERE rowid IN (
           SELECT rowid FROM tasks
           WHERE json_extract(info, '$.status') IN ('completed', 'failed', 'cancelled', 'lost')
           ORDER BY updated_at DESC LIMIT -1 OFFSET ?)`,
      )
      .run(keep);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
