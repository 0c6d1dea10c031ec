import { afterEach, describe, expect, it } from 'vitest';
import { NodePlatform } from '../../electron/host/node-platform.js';
import type { ServerConfig } from '../../shared/model/config.js';
import type { ChatMessage, TaskResultChatBlock } from '../../shared/model/chat.js';
import type { TaskInfo } from '../../shared/model/tasks.js';
import type { ContentBlockBody, MessagesRequestBody } from '../fixtures/fake-anthropic.js';
import { TEST_KEY, turnEnd, waitForEvent } from '../helpers/chat.js';
import { createTestHost, value } from '../helpers/host.js';
import type { TestHost } from '../helpers/host.js';
import { startTaskHttp } from '../helpers/http-servers.js';
import type { HttpServerProcess } from '../helpers/http-servers.js';
import { everything, fixtureServer, tempDir } from '../helpers/servers.js';
import { waitForTask } from '../helpers/task-events.js';
import { fakeAnthropicEachTest, hostsDisposedAfterEach } from '../helpers/tracked-hosts.js';

/** server-everything's task tool: four stages of about a second each. */
const TASK_TOOL = 'simulate-research-query';
const CALL = `call ${TASK_TOOL} {"topic":"tides"}`;

const anthropic = fakeAnthropicEachTest();
const hosts = hostsDisposedAfterEach();
const processes: HttpServerProcess[] = [];
afterEach(async () => {
  for (const p of processes.splice(0)) await p.stop();
});

/** A chat host on the fake API with server-everything as "research", its task tool listed. */
async function chatHost(server: ServerConfig, dataDir = tempDir(), tool = TASK_TOOL): Promise<TestHost> {
  const t = hosts.track(
    await createTestHost(
      { research: server },
      { platform: new NodePlatform(dataDir, undefined, { keychain: null }) },
    ),
  );
  value(await t.api.updateSettings({ baseUrl: anthropic.fake.url }));
  value(await t.api.setApiKey({ key: TEST_KEY }));
  value(await t.api.startServer({ name: 'research' }));
  for (let i = 0; i < 200; i++) {
    const snapshot = value(await t.api.listServers({})).find((s) => s.name === 'research');
    if (snapshot?.tools.some((listed) => listed.name === tool)) return t;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the server never listed ${tool}`);
}

/**
 * The task HTTP fixture (it keeps its tasks across host restarts), a chat
 * host on a fresh data folder with it as "research", and a conversation.
 */
async function remoteTaskChat(): Promise<{
  remote: ServerConfig;
  dataDir: string;
  first: TestHost;
  id: string;
}> {
  const server = await startTaskHttp();
  processes.push(server);
  const dataDir = tempDir();
  const remote = { url: `${server.origin}/mcp` };
  const first = await chatHost(remote, dataDir, 'research');
  return { remote, dataDir, first, id: value(await first.api.createConversation({})).id };
}

/** Sends the call, allows it, and waits for the turn to end; returns the started task. */
async function startTask(t: TestHost, conversationId: string, text = CALL): Promise<TaskInfo> {
  const from = t.events.length;
  const started = value(await t.api.sendMessage({ conversationId, text }));
  const consent = await waitForEvent(t, 'consentRequested', () => true, from);
  value(await t.api.answerConsent({ id: consent.id, answer: { decision: 'always-allow' } }));
  const end = await turnEnd(t, started.turnId, from);
  expect(end.state).toBe('done');
  return waitForTask(t, (task) => task.conversationId === conversationId, 'the task', from);
}

const textsOf = (blocks: ContentBlockBody[] | undefined): string[] =>
  (blocks ?? []).flatMap((b) => (b.type === 'text' ? [b.text ?? ''] : []));

/** The requests whose last user message carries a task's result. */
const deliveries = (): MessagesRequestBody[] =>
  anthropic.fake
    .messageRequests()
    .filter((r) => textsOf(r.messages.at(-1)?.content).some((x) => x.includes('[Task result from the host')));

function taskResultMessage(t: TestHost, conversationId: string, from = 0): Promise<TaskResultChatBlock> {
  return waitForEvent(
    t,
    'chatMessage',
    (e) => e.conversationId === conversationId && e.message.blocks.some((b) => b.type === 'task_result'),
    from,
    40_000,
  ).then(
    (e) =>
      e.message.blocks.find((b): b is TaskResultChatBlock => b.type === 'task_result') as TaskResultChatBlock,
  );
}

const taskBlocks = (messages: ChatMessage[]): TaskResultChatBlock[] =>
  messages.flatMap((m) => m.blocks.filter((b): b is TaskResultChatBlock => b.type === 'task_result'));

describe('a chat turn never waits on a task (server-everything, fake Messages API)', () => {
  it('the turn ends at once, the conversation chats on, and the result comes back in a new turn', async () => {
    const t = await chatHost(everything());
    const id = value(await t.api.createConversation({})).id;
    const task = await startTask(t, id);

    // Claude was told the task started; the task still runs.
    const [, second] = anthropic.fake.messageRequests();
    const started = second?.messages.at(-1)?.content.find((b) => b.type === 'tool_result');
    expect(textsOf(started?.content).join(' ')).toContain(`started task "${task.taskId}"`);
    expect(value(await t.api.listTasks({}))[0]?.status).toBe('working');

    // (a) A second message in the same conversation is answered while the task runs.
    const from = t.events.length;
    const next = value(await t.api.sendMessage({ conversationId: id, text: 'still there?' }));
    expect((await turnEnd(t, next.turnId, from)).state).toBe('done');
    expect(value(await t.api.listTasks({}))[0]?.status).toBe('working');
    const detail = value(await t.api.getConversation({ id }));
    expect(detail.messages.at(-1)?.blocks).toEqual([{ type: 'text', text: 'You said: still there?' }]);

    // (b) The result arrives as a message of its own and Claude is asked again with it.
    const block = await taskResultMessage(t, id, from);
    expect(block).toMatchObject({
      status: 'completed',
      taskId: task.taskId,
      tool: TASK_TOOL,
      isError: false,
    });
    const turn = await waitForEvent(
      t,
      'turnState',
      (s) => s.conversationId === id && s.state === 'done',
      t.events.length - 1,
      20_000,
    );
    expect(turn.state).toBe('done');
    const [delivery, ...more] = deliveries();
    expect(more).toHaveLength(0);
    const sent = textsOf(delivery?.messages.at(-1)?.content);
    const toolUseId = detail.messages[1]?.blocks.find((b) => b.type === 'tool_use');
    expect(sent[0]).toContain(
      `started by your earlier tool call ${toolUseId?.type === 'tool_use' ? toolUseId.id : '?'}`,
    );
    expect(sent[0]).toContain(`Task "${task.taskId}"`);
    expect(sent.join('\n')).toContain('# Research Report: tides');
    // The history stays valid: the earlier call's tool_result is still the "started" one.
    expect(delivery?.messages.at(-1)?.role).toBe('user');
    expect(value(await t.api.listTasks({}))[0]).toMatchObject({ status: 'completed', delivery: 'delivered' });
  }, 60_000);

  it('a result that arrives while Claude answers waits for that turn, then is delivered once', async () => {
    const t = await chatHost(everything());
    const id = value(await t.api.createConversation({})).id;
    await startTask(t, id);
    // A slow answer that is still streaming when the task ends (about four seconds in).
    const from = t.events.length;
    const slow = value(await t.api.sendMessage({ conversationId: id, text: 'slow 250' }));
    const block = await taskResultMessage(t, id, from);
    const endOfSlow = t.events.findIndex(
      (e, i) =>
        i >= from &&
        e.event === 'turnState' &&
        (e.payload as { turnId: string; state: string }).turnId === slow.turnId &&
        (e.payload as { state: string }).state === 'done',
    );
    const resultAt = t.events.findIndex(
      (e, i) =>
        i >= from &&
        e.event === 'chatMessage' &&
        (e.payload as { message: ChatMessage }).message.blocks.some((b) => b.type === 'task_result'),
    );
    expect(endOfSlow).toBeGreaterThanOrEqual(0);
    expect(resultAt).toBeGreaterThan(endOfSlow);
    expect(block.status).toBe('completed');
    await waitForEvent(t, 'turnState', (s) => s.conversationId === id && s.state === 'done', resultAt);
    expect(deliveries()).toHaveLength(1);
    expect(taskBlocks(value(await t.api.getConversation({ id })).messages)).toHaveLength(1);
  }, 60_000);

  it('Stop ends the stream at once and leaves the running task alone; cancelling it tells Claude', async () => {
    const t = await chatHost(everything());
    const id = value(await t.api.createConversation({})).id;
    // The answer after the "started" result hangs, so Stop lands on a turn whose task runs.
    anthropic.fake.enqueue(
      { type: 'tool_use', toolSuffix: TASK_TOOL, input: { topic: 'stop' } },
      { type: 'hang', text: 'Meanwhile' },
    );
    const from = t.events.length;
    const started = value(await t.api.sendMessage({ conversationId: id, text: 'research' }));
    const consent = await waitForEvent(t, 'consentRequested', () => true, from);
    value(await t.api.answerConsent({ id: consent.id, answer: { decision: 'allow-once' } }));
    const task = await waitForTask(t, (x) => x.conversationId === id, 'the task', from);
    await waitForEvent(
      t,
      'chatDelta',
      (d) => d.turnId === started.turnId && d.text.includes('Meanwhile'),
      from,
    );
    value(await t.api.stopTurn({ conversationId: id }));
    expect((await turnEnd(t, started.turnId, from)).state).toBe('stopped');
    // Not cancelled by Stop.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(value(await t.api.listTasks({}))[0]).toMatchObject({ taskId: task.taskId, status: 'working' });
    // The person chose "Cancel tasks": the cancellation reaches Claude as the task's end.
    value(await t.api.cancelTask({ server: 'research', taskId: task.taskId }));
    const block = await taskResultMessage(t, id, from);
    expect(block).toMatchObject({ status: 'cancelled', isError: true });
    await waitForEvent(
      t,
      'turnState',
      (s) => s.conversationId === id && s.state === 'done' && s.turnId !== started.turnId,
      from,
    );
    expect(textsOf(deliveries()[0]?.messages.at(-1)?.content)[0]).toContain('was cancelled');
  }, 60_000);

  it('a host restart mid-task (a remote server that keeps its tasks): the result reaches Claude once', async () => {
    const { remote, dataDir, first, id } = await remoteTaskChat();
    const task = await startTask(first, id, 'call research {"seconds":3}');
    await new Promise((resolve) => setTimeout(resolve, 300));
    await first.dispose();
    const before = anthropic.fake.messageRequests().length;

    const second = await chatHost(remote, dataDir, 'research');
    const block = await taskResultMessage(second, id);
    expect(block).toMatchObject({ status: 'completed', taskId: task.taskId, isError: false });
    await waitForEvent(second, 'turnState', (s) => s.conversationId === id && s.state === 'done', 0, 20_000);
    expect(anthropic.fake.messageRequests().length).toBe(before + 1);
    expect(deliveries()).toHaveLength(1);
    expect(textsOf(deliveries()[0]?.messages.at(-1)?.content).join('\n')).toContain(
      'research done after 3 s',
    );

    // A third host on the same data folder delivers nothing again.
    await second.dispose();
    const third = await chatHost(remote, dataDir, 'research');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(deliveries()).toHaveLength(1);
    expect(taskBlocks(value(await third.api.getConversation({ id })).messages)).toHaveLength(1);
  }, 90_000);

  it('a crash between the end of a task and its delivery: the next host fetches the result and delivers it once', async () => {
    const { remote, dataDir, first, id } = await remoteTaskChat();
    const task = await startTask(first, id, 'call research {"seconds":1}');
    // Claude is answering something else when the task ends: its delivery waits for that turn…
    const from = first.events.length;
    value(await first.api.sendMessage({ conversationId: id, text: 'hang' }));
    await waitForTask(first, (x) => x.taskId === task.taskId && x.status === 'completed', 'its end', from);
    await new Promise((resolve) => setTimeout(resolve, 200));
    // …and the host goes away before it could deliver.
    await first.dispose();
    expect(deliveries()).toHaveLength(0);

    const second = await chatHost(remote, dataDir, 'research');
    const block = await taskResultMessage(second, id);
    expect(block).toMatchObject({ status: 'completed', taskId: task.taskId });
    expect(block.content[0]).toMatchObject({ text: 'research done after 1 s' });
    await waitForEvent(second, 'turnState', (s) => s.conversationId === id && s.state === 'done', 0, 20_000);
    expect(deliveries()).toHaveLength(1);
    expect(taskBlocks(value(await second.api.getConversation({ id })).messages)).toHaveLength(1);
  }, 60_000);

  it('2026-07-28 Tasks extension: a call answered with a task handle does not hold up the turn either', async () => {
    const t = await chatHost(fixtureServer('task-ext-server.mjs'), tempDir(), 'job');
    const id = value(await t.api.createConversation({})).id;
    const task = await startTask(t, id, 'call job {"mode":"ok","ms":1500}');
    const started = anthropic.fake
      .messageRequests()[1]
      ?.messages.at(-1)
      ?.content.find((b) => b.type === 'tool_result');
    expect(textsOf(started?.content).join(' ')).toContain(`started task "${task.taskId}"`);
    const block = await taskResultMessage(t, id);
    expect(block).toMatchObject({
      status: 'completed',
      taskId: task.taskId,
      content: [{ type: 'text', text: 'done' }],
    });
    const delivered = await waitForEvent(t, 'chatMessage', (e) =>
      e.message.blocks.some((b) => b.type === 'task_result'),
    );
    expect((await turnEnd(t, delivered.message.turnId)).state).toBe('done');
    expect(deliveries()).toHaveLength(1);
  }, 60_000);

  it('a host restart mid-task (stdio server restarted with it): Claude is told the task was lost', async () => {
    const dataDir = tempDir();
    const first = await chatHost(everything(), dataDir);
    const id = value(await first.api.createConversation({})).id;
    const task = await startTask(first, id);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await first.dispose();

    const second = await chatHost(everything(), dataDir);
    const block = await taskResultMessage(second, id);
    expect(block).toMatchObject({ status: 'lost', taskId: task.taskId, isError: true });
    expect(block.content[0]).toMatchObject({
      text: expect.stringMatching(/is no longer known to the server/),
    });
    await waitForEvent(second, 'turnState', (s) => s.conversationId === id && s.state === 'done', 0, 20_000);
    expect(textsOf(deliveries()[0]?.messages.at(-1)?.content)[0]).toContain('was lost');
  }, 60_000);
});
