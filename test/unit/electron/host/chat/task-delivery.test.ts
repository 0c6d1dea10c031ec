import { describe, expect, it } from 'vitest';
import { TaskDelivery } from '../../../../../electron/host/chat/task-delivery.js';
import type { TaskResultSink } from '../../../../../electron/host/chat/task-delivery.js';
import { HostError } from '../../../../../electron/host/errors.js';
import { TaskRegistry } from '../../../../../electron/host/servers/tasks/task-registry.js';
import type { ToolCallResult } from '../../../../../shared/model/server.js';
import type { TaskInfo } from '../../../../../shared/model/tasks.js';

const task = (taskId: string, conversationId = 'c1'): TaskInfo => ({
  server: 'research',
  taskId,
  tool: 'slow',
  conversationId,
  toolCallId: `toolu_${taskId}`,
  status: 'working',
  startedAt: 1,
  updatedAt: 1,
});
const result = (text: string): ToolCallResult => ({
  isError: false,
  content: [{ type: 'text', text }],
  durationMs: 5,
});
const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/** A sink whose deliveries end only when the test says so. */
function sink() {
  const calls: { conversationId: string; taskId: string; finish: () => void }[] = [];
  const deliver: TaskResultSink = (conversationId, block, _full, committed) =>
    new Promise<void>((resolve) => {
      committed();
      calls.push({ conversationId, taskId: block.taskId, finish: resolve });
    });
  return { calls, deliver };
}

describe('TaskDelivery', () => {
  it('delivers tasks that end together one after another, each once, and marks each delivered', async () => {
    const registry = new TaskRegistry();
    const { calls, deliver } = sink();
    const delivery = new TaskDelivery({ registry, deliver });
    for (const id of ['a', 'b']) {
      registry.put(task(id));
      delivery.follow(task(id), Promise.resolve(result(id)));
    }
    await tick();
    // The second waits for the first delivery's turn to end.
    expect(calls.map((c) => c.taskId)).toEqual(['a']);
    delivery.ended(task('a'), { kind: 'result', result: result('a') });
    calls[0]?.finish();
    await tick();
    expect(calls.map((c) => c.taskId)).toEqual(['a', 'b']);
    calls[1]?.finish();
    await tick();
    expect(registry.get('research', 'a')?.delivery).toBe('delivered');
    expect(registry.get('research', 'b')?.delivery).toBe('delivered');
    delivery.ended(task('b'), { kind: 'result', result: result('b') });
    await tick();
    expect(calls).toHaveLength(2);
  });

  it('a call that failed without a verdict settles the task failed and delivers its line', async () => {
    const registry = new TaskRegistry();
    const blocks: { status: string; text: string }[] = [];
    const delivery = new TaskDelivery({
      registry,
      deliver: (_c, block, _f, committed) => {
        committed();
        const first = block.content[0];
        blocks.push({ status: block.status, text: first?.type === 'text' ? first.text : '' });
        return Promise.resolve();
      },
    });
    registry.put(task('x'));
    delivery.follow(task('x'), Promise.reject(new HostError('not_connected', 'Server "research" closed')));
    await tick();
    expect(registry.get('research', 'x')).toMatchObject({ status: 'failed', delivery: 'delivered' });
    expect(blocks).toEqual([{ status: 'failed', text: 'Server "research" closed' }]);
  });

  it('a deleted conversation counts as delivered; after dispose nothing is delivered', async () => {
    const registry = new TaskRegistry();
    const delivery = new TaskDelivery({
      registry,
      deliver: () => Promise.reject(new HostError('not_found', 'No such conversation')),
    });
    registry.put(task('gone'));
    delivery.follow(task('gone'), Promise.resolve(result('gone')));
    await tick();
    expect(registry.get('research', 'gone')?.delivery).toBe('delivered');

    const { calls, deliver } = sink();
    const later = new TaskDelivery({ registry, deliver });
    registry.put(task('late'));
    later.follow(task('late'), Promise.resolve(result('late')));
    later.dispose();
    await tick();
    expect(calls).toHaveLength(0);
    expect(registry.get('research', 'late')?.delivery).toBe('pending');
  });
});
