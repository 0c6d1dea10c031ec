import { describe, expect, it } from 'vitest';
import { specTypeSchemas } from '@modelcontextprotocol/client';
import {
  ExtensionStatusSchema,
  readExtensionStatus,
  readTaskStatus,
} from '../../../../../../electron/host/client-features/tasks/tasks-feature.js';
import { TASK_STATUS_PARAMS } from '../../../../../helpers/task-status.js';

/**
 * The fast paths read task status notifications by hand; they must accept
 * exactly what the SDK's schemas accept (what they refuse goes to the SDK's
 * handler, which reports it), or a server could get past a check.
 */

const valid = TASK_STATUS_PARAMS;

const odd: readonly unknown[] = [undefined, null, 0, 1.5, -1, '', 'x', 'working', true, [], {}, ['a']];

/** The valid params with each member in turn missing or replaced by each odd value, plus extra members. */
function variants(base: Record<string, unknown>): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [base, { ...base, extra: 1 }, { ...base, _meta: { a: 1 } }];
  for (const key of Object.keys(base)) {
    const { [key]: _dropped, ...without } = base;
    out.push(without);
    for (const value of odd) out.push({ ...base, [key]: value });
  }
  for (const state of ['input_required', 'completed', 'failed', 'cancelled', 'lost', 'Working']) {
    out.push({ ...base, status: state });
  }
  out.push({ ...base, taskId: 'x'.repeat(501) }, { ...base, status: 'y'.repeat(51) });
  return out;
}

describe('the fast paths of task status notifications', () => {
  it('readTaskStatus accepts exactly what the SDK schema of notifications/tasks/status accepts', () => {
    const schema = specTypeSchemas.TaskStatusNotificationParams;
    const cases = variants(valid);
    expect(cases.length).toBeGreaterThan(80);
    for (const params of cases) {
      const sdk = schema['~standard'].validate(params);
      if (sdk instanceof Promise) throw new Error('the SDK schema is synchronous');
      const accepted = sdk.issues === undefined;
      expect({ params, accepted: readTaskStatus(params) !== undefined }).toEqual({ params, accepted });
    }
  });

  it('readExtensionStatus accepts exactly what the schema of the extension notifications/tasks accepts', () => {
    const base = { taskId: 'task-1', status: 'working', statusMessage: 'tick 1', ttlMs: 1000 };
    for (const params of variants(base)) {
      const accepted = ExtensionStatusSchema.safeParse(params).success;
      expect({ params, accepted: readExtensionStatus(params) !== undefined }).toEqual({ params, accepted });
    }
  });

  it('reads the id, the status and the message, nothing else', () => {
    expect(readTaskStatus({ ...valid, ttl: null, extra: 'ignored' })).toEqual({
      taskId: 'task-1',
      status: 'working',
      statusMessage: 'tick 1',
    });
    const { statusMessage: _none, ...quiet } = valid;
    expect(readTaskStatus(quiet)).toEqual({ taskId: 'task-1', status: 'working', statusMessage: undefined });
  });
});
