import { afterEach, describe, expect, it, vi } from 'vitest';
import { TaskRegistry } from '../../../../../../electron/host/servers/tasks/task-registry.js';
import type { PollWait } from '../../../../../../electron/host/servers/tasks/task-registry.js';
import type { TaskInfo } from '../../../../../../shared/model/tasks.js';

const task = (patch: Partial<TaskInfo> = {}): TaskInfo => ({
  server: 'alpha',
  taskId: 't1',
  tool: 'research',
  status: 'working',
  startedAt: 1,
  updatedAt: 1,
  ...patch,
});

describe('TaskRegistry', () => {
  it('a status flood reaches the renderer at most four times a second, the latest message last', async () => {
    const seen: TaskInfo[] = [];
    const registry = new TaskRegistry({ onChange: (tasks) => seen.push(...tasks) });
    registry.put(task());
    for (let i = 0; i < 5000; i++) {
      registry.statusNotified('alpha', {
        taskId: 't1',
        status: 'working',
        statusMessage: `step ${String(i)}`,
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(seen.length).toBeLessThanOrEqual(3);
    expect(seen.at(-1)?.statusMessage).toBe('step 4999');
    expect(registry.get('alpha', 't1')?.statusMessage).toBe('step 4999');
  });

  it('the messages of many tasks reach the renderer together, and a new status alone at once', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const events: TaskInfo[][] = [];
      const registry = new TaskRegistry({ onChange: (tasks) => events.push(tasks) });
      const ids = Array.from({ length: 50 }, (_, i) => `t${String(i)}`);
      for (const taskId of ids) registry.put(task({ taskId }));
      events.length = 0;
      const report = (taskId: string, statusMessage: string) => {
        registry.statusNotified('alpha', { taskId, status: 'working', statusMessage });
      };
      // One second of 50 tasks reporting every 100 ms: 500 messages.
      for (let tick = 1; tick <= 10; tick++) {
        for (const taskId of ids) report(taskId, `tick ${String(tick)}`);
        vi.advanceTimersByTime(100);
      }
      vi.advanceTimersByTime(250);
      // The first message at once, then one event each 250 ms with every task's latest message.
      expect(events.length).toBe(5);
      expect(events[0]).toHaveLength(1);
      expect(events.slice(1).map((batch) => batch.length)).toEqual([50, 50, 50, 50]);
      expect(events.at(-1)?.map((t) => t.statusMessage)).toEqual(ids.map(() => 'tick 10'));

      // After a quiet spell a message goes at once; a new status does not wait for the batch,
      // and the message still waiting is not sent after it.
      vi.advanceTimersByTime(1000);
      events.length = 0;
      report('t1', 'late');
      report('t1', 'later');
      registry.statusNotified('alpha', { taskId: 't1', status: 'input_required' });
      vi.advanceTimersByTime(1000);
      expect(events.map((batch) => batch.map((t) => `${t.status}: ${t.statusMessage ?? ''}`))).toEqual([
        ['working: late'],
        ['input_required: later'],
      ]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a new status is published at once, and a final state stays final', () => {
    const seen: string[] = [];
    const registry = new TaskRegistry({ onChange: (tasks) => seen.push(...tasks.map((t) => t.status)) });
    registry.put(task());
    registry.statusNotified('alpha', { taskId: 't1', status: 'input_required' });
    registry.statusNotified('alpha', { taskId: 't1', status: 'completed' });
    registry.statusNotified('alpha', { taskId: 't1', status: 'working' });
    expect(seen).toEqual(['working', 'input_required', 'completed']);
    expect(registry.get('alpha', 't1')?.status).toBe('completed');
  });

  it('a status for a task the host does not know is one line in that server log, nothing else', () => {
    const lines: string[] = [];
    const seen: TaskInfo[] = [];
    const registry = new TaskRegistry({
      onChange: (tasks) => seen.push(...tasks),
      onWarning: (s, l) => lines.push(`${s}: ${l}`),
    });
    registry.statusNotified('alpha', { taskId: 'nobody-knows', status: 'completed' });
    expect(lines).toEqual([
      'alpha: [host] ignored a status for task "nobody-knows", which the host does not know',
    ]);
    expect(seen).toEqual([]);
    expect(registry.list()).toEqual([]);
  });

  it('a status notification wakes the poller early', async () => {
    const registry = new TaskRegistry();
    registry.put(task());
    const started = performance.now();
    const waiting = registry.changed('alpha', 't1', { ms: 10_000 });
    setTimeout(() => {
      registry.statusNotified('alpha', { taskId: 't1', status: 'completed' });
    }, 20);
    await waiting;
    expect(performance.now() - started).toBeLessThan(1000);
  });

  describe('a follower waiting for its next poll', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    /** A registry with task t1 of alpha, on fake timers, and a follower's wait on it. */
    function waiting(wait: PollWait): {
      state: { done: boolean };
      message: (text: string) => void;
      status: (status: string) => void;
    } {
      vi.useFakeTimers();
      const registry = new TaskRegistry();
      registry.put(task());
      const state = { done: false };
      void registry.changed('alpha', 't1', wait).then(() => {
        state.done = true;
      });
      return {
        state,
        message: (text) => {
          registry.statusNotified('alpha', { taskId: 't1', status: 'working', statusMessage: text });
        },
        status: (status) => {
          registry.statusNotified('alpha', { taskId: 't1', status });
        },
      };
    }

    it('is not woken by a new message, which moves its poll to quiet.ms after it', async () => {
      const { state, message } = waiting({ ms: 100, quiet: { ms: 150, latest: Infinity } });
      // A message every 90 ms for about a second: the server keeps telling, so no poll is due.
      for (let i = 1; i <= 11; i++) {
        await vi.advanceTimersByTimeAsync(90);
        message(`tick ${String(i)}`);
      }
      expect(state.done).toBe(false);
      await vi.advanceTimersByTimeAsync(149);
      expect(state.done).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(state.done).toBe(true);
    });

    it('is woken at once by a new status', async () => {
      const { state, message, status } = waiting({ ms: 5000, quiet: { ms: 150, latest: Infinity } });
      message('still going');
      await vi.advanceTimersByTimeAsync(0);
      expect(state.done).toBe(false);
      status('input_required');
      await vi.advanceTimersByTimeAsync(0);
      expect(state.done).toBe(true);
    });

    it('is never held past quiet.latest (the end of the ttl), however the messages come', async () => {
      const latest = Date.now() + 400;
      const { state, message } = waiting({ ms: 100, quiet: { ms: 150, latest } });
      for (let i = 0; i < 10 && !state.done; i++) {
        await vi.advanceTimersByTimeAsync(90);
        message(`tick ${String(i)}`);
      }
      expect(state.done).toBe(true);
      expect(Date.now()).toBeLessThanOrEqual(latest);
    });

    it('without quiet, a message neither wakes it nor moves it', async () => {
      const { state, message } = waiting({ ms: 100 });
      await vi.advanceTimersByTimeAsync(60);
      message('tick');
      await vi.advanceTimersByTimeAsync(39);
      expect(state.done).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(state.done).toBe(true);
    });
  });

  it('tasks of one server are listed apart, newest first', () => {
    const registry = new TaskRegistry();
    registry.put(task({ taskId: 'a', startedAt: 1 }));
    registry.put(task({ taskId: 'b', startedAt: 2 }));
    registry.put(task({ server: 'beta', taskId: 'c', startedAt: 3 }));
    expect(registry.list().map((t) => t.taskId)).toEqual(['c', 'b', 'a']);
    expect(registry.list('alpha').map((t) => t.taskId)).toEqual(['b', 'a']);
  });
});
