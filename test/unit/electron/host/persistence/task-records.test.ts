import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../../electron/host/persistence/database.js';
import { TaskRecords } from '../../../../../electron/host/persistence/task-records.js';
import type { TaskInfo } from '../../../../../shared/model/tasks.js';
import { tempDir } from '../../../../helpers/servers.js';

const task = (taskId: string, patch: Partial<TaskInfo> = {}): TaskInfo => ({
  server: 'alpha',
  taskId,
  tool: 'research',
  status: 'working',
  startedAt: 1,
  updatedAt: 1,
  ...patch,
});

describe('TaskRecords', () => {
  it('keeps tasks across a reopen, newest first; a damaged row is skipped', () => {
    const file = join(tempDir(), 'host.db');
    const db = openDatabase(file);
    const records = new TaskRecords(db);
    records.save(task('a', { updatedAt: 1 }));
    records.save(task('b', { updatedAt: 2, conversationId: 'c1', toolCallId: 'toolu_1' }));
    records.save(task('a', { updatedAt: 3, status: 'input_required', statusMessage: 'Which one?' }));
    db.prepare(
      "INSERT INTO tasks (server, task_id, info, updated_at) VALUES ('x', 'y', '{not json', 9)",
    ).run();
    db.close();
    const reopened = openDatabase(file);
    const listed = new TaskRecords(reopened).list();
    expect(listed.map((t) => [t.taskId, t.status])).toEqual([
      ['a', 'input_required'],
      ['b', 'working'],
    ]);
    expect(listed[1]).toMatchObject({ conversationId: 'c1', toolCallId: 'toolu_1' });
    reopened.close();
  });

  it('prunes the oldest finished tasks, never a running one', () => {
    const db = openDatabase(join(tempDir(), 'host.db'));
    const records = new TaskRecords(db);
    records.save(task('running', { updatedAt: 0 }));
    for (let i = 1; i <= 5; i++)
      records.save(task(`done-${String(i)}`, { status: 'completed', updatedAt: i }));
    records.prune(2);
    expect(records.list().map((t) => t.taskId)).toEqual(['done-5', 'done-4', 'running']);
    db.close();
  });
});
