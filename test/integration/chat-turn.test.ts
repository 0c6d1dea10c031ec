import { describe, expect, it } from 'vitest';
import { argumentsDigest } from '../../electron/host/persistence/consent-audit.js';
import { TOOL_RESULT_TEXT_CAP } from '../../electron/host/chat/tool-result-mapping.js';
import type { ChatMessage } from '../../shared/model/chat.js';
import { systemBlocks } from '../fixtures/fake-anthropic.js';
import type { ContentBlockBody } from '../fixtures/fake-anthropic.js';
import { TEST_KEY, eventsOf, turnEnd, waitForEvent } from '../helpers/chat.js';
import { value } from '../helpers/host.js';
import type { TestHost } from '../helpers/host.js';
import { fakeAnthropicEachTest, hostsDisposedAfterEach } from '../helpers/tracked-hosts.js';
import { everything, fixtureServer } from '../helpers/servers.js';

const slowToolServer = fixtureServer('slow-tool-server.mjs');

const anthropic = fakeAnthropicEachTest();
const hosts = hostsDisposedAfterEach();
let t: TestHost | undefined;

async function newConversation(host: TestHost): Promise<string> {
  return value(await host.api.createConversation({})).id;
}

/** Answers the next tool consent request with this decision; returns the request. */
async function answerNextConsent(host: TestHost, decision: 'allow-once' | 'always-allow' | 'deny', from = 0) {
  const request = await waitForEvent(host, 'consentRequested', () => true, from);
  value(await host.api.answerConsent({ id: request.id, answer: { decision } }));
  return request;
}

const texts = (blocks: ContentBlockBody[] | undefined): string[] =>
  (blocks ?? []).filter((b) => b.type === 'text').map((b) => b.text ?? '');

function toolResultsSent(requestIndex: number): ContentBlockBody[] {
  const body = anthropic.fake.messageRequests()[requestIndex];
  return (body?.messages.at(-1)?.content ?? []).filter((b) => b.type === 'tool_result');
}

describe('chat turn with tools (real SDK against the fake Messages API, server-everything)', () => {
  it('runs an approved tool call end to end: consent, tools/call, tool_result, final answer, all stored', async () => {
    t = await hosts.chat(anthropic.fake, { everything: everything() });
    const id = await newConversation(t);
    const started = value(
      await t.api.sendMessage({ conversationId: id, text: 'call echo {"message":"hello"}' }),
    );

    const request = await answerNextConsent(t, 'allow-once');
    expect(request).toMatchObject({ kind: 'tool', server: 'everything', prompt: { tool: 'echo' } });
    if (request.kind !== 'tool') throw new Error(`expected a tool consent, got ${request.kind}`);
    expect(JSON.parse(request.prompt.argumentsJson)).toEqual({ message: 'hello' });
    const end = await turnEnd(t, started.turnId);
    expect(end.state).toBe('done');

    // What the model was given: namespaced tools with a cache breakpoint, a cached system prompt.
    const [first, second] = anthropic.fake.messageRequests();
    expect(first?.tools?.some((tool) => tool.name === 'everything__echo')).toBe(true);
    expect(first?.tools?.every((tool) => /^[a-zA-Z0-9_-]{1,64}$/.test(tool.name))).toBe(true);
    expect(first?.tools?.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
    expect(systemBlocks(first).at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
    expect(systemBlocks(first)[0]?.text).toContain('MCP');
    // The echo result went back as a tool_result for the model's tool_use id.
    const toolUse = second?.messages.at(-2)?.content.find((b) => b.type === 'tool_use');
    const [result] = toolResultsSent(1);
    expect(result?.tool_use_id).toBe(toolUse?.id);
    expect(result?.is_error).toBeUndefined();
    expect(texts(result?.content)).toEqual(['Echo: hello']);
    const headers = anthropic.fake.requests.find((r) => r.path === '/v1/messages')?.headers ?? {};
    expect(String(headers['x-api-key'] ?? headers.authorization)).toContain(TEST_KEY);

    // Committed history: user, assistant(tool_use), tool result, assistant(answer).
    const detail = value(await t.api.getConversation({ id }));
    expect(detail.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    const toolMessage = detail.messages[2] as ChatMessage;
    expect(toolMessage.blocks[0]).toMatchObject({
      type: 'tool_result',
      status: 'ok',
      server: 'everything',
      tool: 'echo',
      content: [{ type: 'text', text: 'Echo: hello' }],
    });
    expect(detail.messages[3]?.blocks).toEqual([{ type: 'text', text: 'The tool said: Echo: hello' }]);
    expect(detail.conversation.title).toBe('call echo {"message":"hello"}');
    expect(detail.conversation.usage.inputTokens).toBe(200);
    expect(detail.conversation.usage.costUsd).toBeGreaterThan(0);

    // Streaming and status events the UI draws from.
    const streamed = eventsOf(t, 'chatDelta')
      .filter((d) => d.messageId === detail.messages[3]?.id)
      .map((d) => d.text)
      .join('');
    expect(streamed).toBe('The tool said: Echo: hello');
    const statuses = eventsOf(t, 'toolCallUpdate').map((u) => u.status);
    expect(statuses).toEqual(expect.arrayContaining(['waiting-consent', 'running', 'done']));
    expect(eventsOf(t, 'usage').at(-1)?.turn.inputTokens).toBe(200);

    // The audit trail has the decision with the digest of the canonical arguments.
    const [entry] = value(await t.api.listAudit({}));
    expect(entry).toMatchObject({
      server: 'everything',
      tool: 'echo',
      decision: 'allow_once',
      conversationId: id,
    });
    expect(entry?.argumentsDigest).toBe(argumentsDigest({ message: 'hello' }));
  });

  it('a denied call is never made; the model gets an is_error tool_result saying the user declined', async () => {
    t = await hosts.chat(anthropic.fake, { everything: everything() });
    const id = await newConversation(t);
    const { turnId } = value(
      await t.api.sendMessage({ conversationId: id, text: 'call echo {"message":"secret"}' }),
    );
    await answerNextConsent(t, 'deny');
    expect((await turnEnd(t, turnId)).state).toBe('done');

    const [result] = toolResultsSent(1);
    expect(result?.is_error).toBe(true);
    expect(texts(result?.content).join(' ')).toMatch(/declined/);
    expect(JSON.stringify(anthropic.fake.messageRequests())).not.toContain('Echo: secret');
    const update = eventsOf(t, 'toolCallUpdate').find((u) => u.status === 'denied');
    expect(update?.tool).toBe('echo');
    expect(value(await t.api.listAudit({}))[0]?.decision).toBe('deny');
  });

  it('"always allow" stores a policy that allows the next call without asking, until revoked', async () => {
    t = await hosts.chat(anthropic.fake, { everything: everything() });
    const id = await newConversation(t);
    const first = value(await t.api.sendMessage({ conversationId: id, text: 'call echo {"message":"one"}' }));
    await answerNextConsent(t, 'always-allow');
    await turnEnd(t, first.turnId);
    const [policy] = value(await t.api.listPolicies({})).rules;
    expect(policy).toMatchObject({ server: 'everything', tool: 'echo', scope: 'tool' });

    const asked = eventsOf(t, 'consentRequested').length;
    const second = value(
      await t.api.sendMessage({ conversationId: id, text: 'call echo {"message":"two"}' }),
    );
    expect((await turnEnd(t, second.turnId)).state).toBe('done');
    expect(eventsOf(t, 'consentRequested')).toHaveLength(asked);
    expect(texts(toolResultsSent(3)[0]?.content)).toEqual(['Echo: two']);
    expect(
      eventsOf(t, 'toolCallUpdate').find((u) => u.turnId === second.turnId && u.status === 'running'),
    ).toMatchObject({
      allowedBy: 'policy',
      rule: { id: policy?.id, scope: 'tool' },
    });
    const decisions = value(await t.api.listAudit({})).map((e) => e.decision);
    expect(decisions.slice(0, 2)).toEqual(['policy_allow', 'always_allow']);

    value(await t.api.revokePolicy({ id: policy?.id ?? '' }));
    expect(value(await t.api.listPolicies({}))).toEqual({ rules: [] });
    const from = t.events.length;
    const third = value(
      await t.api.sendMessage({ conversationId: id, text: 'call echo {"message":"three"}' }),
    );
    await answerNextConsent(t, 'allow-once', from);
    expect((await turnEnd(t, third.turnId)).state).toBe('done');
  });

  it('rejects forged, repeated and stale consent answers', async () => {
    t = await hosts.chat(anthropic.fake, { everything: everything() });
    const id = await newConversation(t);
    const first = value(await t.api.sendMessage({ conversationId: id, text: 'call echo {"message":"x"}' }));
    const request = await waitForEvent(t, 'consentRequested');

    const forged = await t.api.answerConsent({ id: 'A'.repeat(22), answer: { decision: 'allow-once' } });
    expect(forged).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const wrongShape = await t.api.answerConsent({ id: request.id, answer: { decision: 'yes please' } });
    expect(wrongShape.ok).toBe(false);
    value(await t.api.answerConsent({ id: request.id, answer: { decision: 'deny' } }));
    const repeated = await t.api.answerConsent({ id: request.id, answer: { decision: 'allow-once' } });
    expect(repeated).toMatchObject({ ok: false, error: { code: 'conflict' } });
    await turnEnd(t, first.turnId);

    // Stale: the turn was stopped, which withdraws the request.
    const from = t.events.length;
    const second = value(await t.api.sendMessage({ conversationId: id, text: 'call echo {"message":"y"}' }));
    const pending = await waitForEvent(t, 'consentRequested', () => true, from);
    value(await t.api.stopTurn({ conversationId: id }));
    expect((await turnEnd(t, second.turnId, from)).state).toBe('stopped');
    await waitForEvent(t, 'consentResolved', (r) => r.id === pending.id && r.outcome === 'withdrawn', from);
    const stale = await t.api.answerConsent({ id: pending.id, answer: { decision: 'allow-once' } });
    expect(stale).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(value(await t.api.listAudit({}))[0]?.decision).toBe('withdrawn');
    // The interrupted tool_use has a cancelled result in the history, so the next request is valid.
    const stored = value(await t.api.getConversation({ id })).messages;
    expect(stored.at(-2)?.blocks[0]).toMatchObject({ type: 'tool_result', status: 'cancelled' });
  });

  it('Stop aborts a streaming answer: nothing partial is stored, the turn can be retried', async () => {
    t = await hosts.chat(anthropic.fake);
    const id = await newConversation(t);
    anthropic.fake.enqueue({ type: 'hang', text: 'Partial answer' });
    const { turnId } = value(await t.api.sendMessage({ conversationId: id, text: 'tell me a story' }));
    const delta = await waitForEvent(t, 'chatDelta', (d) => d.turnId === turnId);
    expect(delta.text).toBe('Partial answer');
    value(await t.api.stopTurn({ conversationId: id }));
    const end = await turnEnd(t, turnId);
    expect(end).toMatchObject({ state: 'stopped', canRetry: true });
    const messages = value(await t.api.getConversation({ id })).messages;
    expect(messages.map((m) => m.role)).toEqual(['user', 'notice']);
    expect(JSON.stringify(messages)).not.toContain('Partial answer');

    const retry = value(await t.api.retryTurn({ conversationId: id }));
    expect((await turnEnd(t, retry.turnId)).state).toBe('done');
    const after = value(await t.api.getConversation({ id })).messages;
    expect(after.at(-1)?.blocks).toEqual([{ type: 'text', text: 'You said: tell me a story' }]);
    // The notice is the UI's; the model saw the user's message only.
    expect(anthropic.fake.messageRequests().at(-1)?.messages).toHaveLength(1);
  });

  it('Stop during a tool call cancels the MCP request and records the call as cancelled', async () => {
    t = await hosts.chat(anthropic.fake, { everything: everything() });
    const id = await newConversation(t);
    const { turnId } = value(
      await t.api.sendMessage({
        conversationId: id,
        text: 'call trigger-long-running-operation {"duration": 60, "steps": 60}',
      }),
    );
    await answerNextConsent(t, 'allow-once');
    await waitForEvent(t, 'toolCallUpdate', (u) => u.status === 'running' && u.progress !== undefined);
    value(await t.api.stopTurn({ conversationId: id }));
    expect((await turnEnd(t, turnId)).state).toBe('stopped');
    const update = await waitForEvent(t, 'toolCallUpdate', (u) => u.status === 'cancelled');
    expect(update.tool).toBe('trigger-long-running-operation');
    const roles = value(await t.api.getConversation({ id })).messages.map((m) => m.role);
    expect(roles).toEqual(['user', 'assistant', 'tool', 'notice']);
    expect(anthropic.fake.messageRequests()).toHaveLength(1);
  });

  it('caps a huge tool result for the model, keeps all of it for "show all"', async () => {
    t = await hosts.chat(anthropic.fake, { everything: everything() });
    const id = await newConversation(t);
    const big = 'x'.repeat(150_000);
    const { turnId } = value(
      await t.api.sendMessage({ conversationId: id, text: `call echo ${JSON.stringify({ message: big })}` }),
    );
    await answerNextConsent(t, 'allow-once');
    await turnEnd(t, turnId);
    const sent = texts(toolResultsSent(1)[0]?.content);
    expect(sent[0]).toHaveLength(TOOL_RESULT_TEXT_CAP);
    expect(sent.at(-1)).toMatch(/was 150006 characters long and was cut/);

    const toolMessage = value(await t.api.getConversation({ id })).messages.find((m) => m.role === 'tool');
    const block = toolMessage?.blocks[0];
    expect(block).toMatchObject({ type: 'tool_result', truncated: { totalChars: 150_006 } });
    const full = value(
      await t.api.getToolResult({ toolUseId: block?.type === 'tool_result' ? block.toolUseId : '' }),
    );
    expect(full.content).toEqual([{ type: 'text', text: `Echo: ${big}` }]);
  });

  it('offers server instructions in the system prompt, labelled per server', async () => {
    t = await hosts.chat(anthropic.fake, { everything: everything() });
    const id = await newConversation(t);
    const { turnId } = value(await t.api.sendMessage({ conversationId: id, text: 'hi' }));
    await turnEnd(t, turnId);
    const snapshot = value(await t.api.listServers({})).find((s) => s.name === 'everything');
    const system = systemBlocks(anthropic.fake.messageRequests()[0])
      .map((b) => b.text)
      .join('\n');
    expect(snapshot?.instructions).toBeTruthy();
    expect(system).toContain('<server_instructions server="everything">');
    expect(system).toContain(snapshot?.instructions?.trim().slice(0, 80) ?? '-');
  });

  it('stops a runaway loop at the iteration limit with a visible notice', async () => {
    t = await hosts.chat(anthropic.fake, { everything: everything() });
    value(await t.api.updateSettings({ maxIterations: 2 }));
    const id = await newConversation(t);
    const again = { type: 'tool_use', toolSuffix: 'echo', input: { message: 'again' } } as const;
    anthropic.fake.enqueue(again, again, again);
    const { turnId } = value(await t.api.sendMessage({ conversationId: id, text: 'loop forever' }));
    await answerNextConsent(t, 'always-allow');
    const end = await turnEnd(t, turnId);
    expect(end).toMatchObject({ state: 'error', canRetry: true, error: { code: 'iteration_limit' } });
    expect(anthropic.fake.messageRequests()).toHaveLength(2);
    const messages = value(await t.api.getConversation({ id })).messages;
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'notice']);
    expect(messages.at(-1)?.blocks[0]).toMatchObject({ type: 'notice', level: 'warning' });
  });

  it('asks for progress, forwards it, and Stop reaches the server as notifications/cancelled', async () => {
    t = await hosts.chat(anthropic.fake, { slow: slowToolServer });
    const id = await newConversation(t);
    const { turnId } = value(await t.api.sendMessage({ conversationId: id, text: 'call wait {}' }));
    await answerNextConsent(t, 'allow-once');
    const progress = await waitForEvent(t, 'toolCallUpdate', (u) => (u.progress?.progress ?? 0) >= 2);
    expect(progress).toMatchObject({
      server: 'slow',
      tool: 'wait',
      status: 'running',
      progress: { total: 100 },
    });
    expect(progress.progress?.message).toMatch(/^step \d+$/);
    value(await t.api.stopTurn({ conversationId: id }));
    expect((await turnEnd(t, turnId)).state).toBe('stopped');
    let tail: string[] = [];
    for (let i = 0; i < 500 && !tail.some((l) => l.startsWith('cancelled ')); i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      tail = value(await t.api.listServers({})).find((s) => s.name === 'slow')?.stderrTail ?? [];
    }
    expect(tail.find((l) => l.startsWith('progress-token '))).not.toBe('progress-token undefined');
    expect(tail.some((l) => l.startsWith('cancelled '))).toBe(true);
  });

  it('sends image attachments with the user message and stores them', async () => {
    t = await hosts.chat(anthropic.fake);
    const id = await newConversation(t);
    const png =
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    const { turnId } = value(
      await t.api.sendMessage({
        conversationId: id,
        text: 'what is this?',
        attachments: [{ type: 'image', mimeType: 'image/png', data: png }],
      }),
    );
    await turnEnd(t, turnId);
    const sent = anthropic.fake.messageRequests()[0]?.messages[0]?.content ?? [];
    expect(sent.map((b) => b.type)).toEqual(['image', 'text']);
    expect(sent[0]).toMatchObject({ source: { type: 'base64', media_type: 'image/png', data: png } });
    const stored = value(await t.api.getConversation({ id })).messages[0];
    expect(stored?.blocks[0]).toEqual({ type: 'image', mimeType: 'image/png', data: png });
  });
});
