import { afterEach, describe, expect, it } from 'vitest';
import { NodePlatform } from '../../electron/host/node-platform.js';
import type { ConsentRequest } from '../../shared/model/consent.js';
import type { ServerConfig } from '../../shared/model/config.js';
import type { ToolCallResult } from '../../shared/model/server.js';
import type { TaskInfo } from '../../shared/model/tasks.js';
import type { ConnectionTuning } from '../../electron/host/servers/connection-options.js';
import { createTestHost, value, waitForEvent } from '../helpers/host.js';
import type { TestHost } from '../helpers/host.js';
import { startEverythingHttp } from '../helpers/http-servers.js';
import type { HttpServerProcess } from '../helpers/http-servers.js';
import { everything, tempDir } from '../helpers/servers.js';
import { taskEvents, waitForTask } from '../helpers/task-events.js';

/** server-everything's task tool: four stages of a second, `ambiguous` adds an input_required step. */
const TASK_TOOL = 'simulate-research-query';

const hosts: TestHost[] = [];
const processes: HttpServerProcess[] = [];
afterEach(async () => {
  for (const t of hosts.splice(0)) await t.host.dispose();
  for (const p of processes.splice(0)) await p.stop();
});

async function start(
  server: ServerConfig,
  options: { dataDir?: string; tuning?: ConnectionTuning } = {},
): Promise<TestHost> {
  const t = await createTestHost(
    { research: server },
    {
      platform: new NodePlatform(options.dataDir ?? tempDir(), undefined, { keychain: null }),
      tuning: options.tuning,
    },
  );
  hosts.push(t);
  value(await t.api.startServer({ name: 'research' }));
  for (let i = 0; i < 200; i++) {
    const snapshot = value(await t.api.listServers({})).find((s) => s.name === 'research');
    if (snapshot?.tools.some((tool) => tool.name === TASK_TOOL)) return t;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the server never listed ${TASK_TOOL}`);
}

const textOf = (result: ToolCallResult): string =>
  result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

function call(t: TestHost, args: Record<string, unknown>) {
  return t.api.callTool({ server: 'research', tool: TASK_TOOL, argumentsJson: JSON.stringify(args) });
}

const firstTask = (t: TestHost): Promise<TaskInfo> => waitForTask(t);

describe('tool calls as tasks (server-everything)', () => {
  it('stdio: the call runs as a task, its stages are reported, the result comes from tasks/result', async () => {
    const t = await start(everything());
    const result = value(await call(t, { topic: 'tides' }));
    expect(textOf(result)).toContain('# Research Report: tides');
    const events = taskEvents(t);
    expect(events[0]).toMatchObject({ server: 'research', tool: TASK_TOOL, status: 'working' });
    expect(events.map((e) => e.statusMessage)).toContain('Gathering sources...');
    expect(events.at(-1)?.status).toBe('completed');
    const listed = value(await t.api.listTasks({}));
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ taskId: events[0]?.taskId, status: 'completed', ttlMs: 300000 });
  }, 30_000);

  it('input_required is answered through the elicitation dialog', async () => {
    const t = await start(everything());
    const pending = call(t, { topic: 'python', ambiguous: true });
    const request = await waitForEvent(
      t,
      (event, payload) => (event === 'consentRequested' ? (payload as ConsentRequest) : undefined),
      'the clarification dialog',
    );
    expect(request.kind).toBe('elicitationForm');
    expect(taskEvents(t).some((e) => e.status === 'input_required')).toBe(true);
    value(
      await t.api.answerConsent({
        id: request.id,
        answer: { action: 'accept', content: { interpretation: 'snake' } },
      }),
    );
    expect(textOf(value(await pending))).toContain('# Research Report: python (snake)');
  }, 30_000);

  it('Streamable HTTP: the same task runs to its result', async () => {
    const server = await startEverythingHttp('streamableHttp');
    processes.push(server);
    const t = await start({ url: `${server.origin}/mcp` });
    expect(textOf(value(await call(t, { topic: 'http' })))).toContain('# Research Report: http');
    expect(taskEvents(t).at(-1)?.status).toBe('completed');
  }, 30_000);

  it('cancel: tasks/cancel reaches the server, the call ends cancelled', async () => {
    const t = await start(everything());
    const pending = call(t, { topic: 'cancel me' });
    const task = await firstTask(t);
    const after = value(await t.api.cancelTask({ server: 'research', taskId: task.taskId }));
    expect(after.status).toBe('cancelled');
    const outcome = await pending;
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error.code).toBe('cancelled');
    // The server knows it was cancelled too.
    expect(value(await t.api.listTasks({ server: 'research' }))[0]?.status).toBe('cancelled');
  }, 30_000);

  it('a result over the size limit is one clear line', async () => {
    const t = await start(everything(), { tuning: { taskLimits: { maxResultBytes: 200 } } });
    const outcome = await call(t, { topic: 'big' });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok)
      expect(outcome.error.message).toMatch(/returned a result of .* over the host's limit of 0\.0 MB$/);
    expect(taskEvents(t).at(-1)?.status).toBe('failed');
  }, 30_000);

  it('after a restart the host follows the task again; a task the server forgot is marked lost', async () => {
    const dataDir = tempDir();
    const first = await start(everything(), { dataDir });
    void call(first, { topic: 'interrupted' });
    const task = await firstTask(first);
    // Give the registry a moment to persist, then the host (and its server) goes away.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await first.host.dispose();
    hosts.splice(hosts.indexOf(first), 1);

    const second = await start(everything(), { dataDir });
    const lost = await waitForTask(second, (x) => x.status === 'lost', 'the lost task');
    expect(lost.taskId).toBe(task.taskId);
    expect(lost.statusMessage).toMatch(/is no longer known to the server/);
    expect(value(await second.api.listTasks({}))[0]).toMatchObject({ taskId: task.taskId, status: 'lost' });
  }, 40_000);
});
