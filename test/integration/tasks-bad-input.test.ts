import { afterEach, describe, expect, it } from 'vitest';
import { createTestHost, value } from '../helpers/host.js';
import type { TestHost } from '../helpers/host.js';
import { fixtureServer } from '../helpers/servers.js';
import { taskEvents } from '../helpers/task-events.js';

/** Our raw task fixture: tools `never`, `forget` and `flood` (see the file). */
const taskServer = fixtureServer('task-server.mjs');

let t: TestHost | undefined;
afterEach(async () => {
  await t?.host.dispose();
  t = undefined;
});

async function start(): Promise<TestHost> {
  t = await createTestHost({ tasks: taskServer });
  value(await t.api.startServer({ name: 'tasks' }));
  return t;
}

function call(host: TestHost, tool: string, args: Record<string, unknown> = {}) {
  return host.api.callTool({ server: 'tasks', tool, argumentsJson: JSON.stringify(args) });
}

describe('tasks that misbehave: one clear line each, the host unaffected', () => {
  it('a task that never finishes fails past its ttl, and the host cancels it on the server', async () => {
    const host = await start();
    const started = Date.now();
    const outcome = await call(host, 'never', { ttl: 800 });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.error.code).toBe('timeout');
      expect(outcome.error.message).toBe(
        'Task "task-1" of server "tasks" did not finish within its ttl (1 s)',
      );
    }
    expect(Date.now() - started).toBeLessThan(8000);
    expect(value(await host.api.listTasks({}))[0]).toMatchObject({ taskId: 'task-1', status: 'failed' });
    const logs = value(await host.api.getServerLogs({ name: 'tasks' }));
    expect(JSON.stringify(logs)).toContain('cancelled task task-1');
    // The server and the host still answer.
    expect(value(await call(host, 'flood', { n: 3 })).content).toEqual([
      { type: 'text', text: 'flood done' },
    ]);
  }, 30_000);

  it('a task the server forgets is marked lost with one line, never retried', async () => {
    const host = await start();
    const outcome = await call(host, 'forget');
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.error.message).toBe(
        'Task "task-1" of server "tasks" is no longer known to the server (it may have restarted or dropped it)',
      );
    }
    expect(taskEvents(host).at(-1)).toMatchObject({ taskId: 'task-1', status: 'lost' });
  }, 30_000);

  it('a status flood reaches the renderer throttled; a status for an unknown task is one log line', async () => {
    const host = await start();
    const result = value(await call(host, 'flood', { n: 5000 }));
    expect(result.content).toEqual([{ type: 'text', text: 'flood done' }]);
    const events = taskEvents(host);
    expect(events.length).toBeLessThan(50);
    expect(events.at(-1)?.status).toBe('completed');
    const logs = JSON.stringify(value(await host.api.getServerLogs({ name: 'tasks' })));
    expect(logs).toContain('ignored a status for task \\"no-such-task\\", which the host does not know');
  }, 30_000);
});
