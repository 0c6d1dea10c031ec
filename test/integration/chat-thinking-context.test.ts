import { describe, expect, it } from 'vitest';
import { NodePlatform } from '../../electron/host/node-platform.js';
import type { ChatMessage } from '../../shared/model/chat.js';
import { TEST_KEY, eventsOf, turnEnd, waitForEvent } from '../helpers/chat.js';
import { value } from '../helpers/host.js';
import type { TestHost } from '../helpers/host.js';
import { fakeAnthropicEachTest, hostsDisposedAfterEach } from '../helpers/tracked-hosts.js';
import { everything, tempDir } from '../helpers/servers.js';

const anthropic = fakeAnthropicEachTest();
const hosts = hostsDisposedAfterEach();
let t: TestHost | undefined;

const blockTypes = (m: ChatMessage | undefined) => m?.blocks.map((b) => b.type);
const notices = (messages: readonly ChatMessage[]) =>
  messages.flatMap((m) => m.blocks.flatMap((b) => (b.type === 'notice' ? [b.text] : [])));

async function conversation(
  host: TestHost,
  settings: Parameters<TestHost['api']['setConversationSettings']>[0]['settings'] = {},
) {
  const id = value(await host.api.createConversation({})).id;
  value(await host.api.setConversationSettings({ id, settings }));
  return id;
}

describe('thinking', () => {
  it('asks for adaptive thinking with the effort, streams and stores it, passes it back across tool use, counts it', async () => {
    t = await hosts.chat(anthropic.fake, { everything: everything() });
    const id = await conversation(t, { thinking: 'adaptive', effort: 'high' });
    const { turnId } = value(
      await t.api.sendMessage({ conversationId: id, text: 'call echo {"message":"hi"}' }),
    );
    const consent = await waitForEvent(t, 'consentRequested');
    value(await t.api.answerConsent({ id: consent.id, answer: { decision: 'allow-once' } }));
    expect((await turnEnd(t, turnId)).state).toBe('done');

    const [first, second] = anthropic.fake.messageRequests();
    expect(first?.thinking).toEqual({ type: 'adaptive' });
    expect(first?.output_config).toEqual({ effort: 'high' });
    expect(first?.max_tokens).toBeGreaterThan(8192);
    // The tool use's thinking went back first in its assistant message, signature intact (the fake checks it).
    const assistantSent = second?.messages[1]?.content ?? [];
    expect(assistantSent[0]).toMatchObject({ type: 'thinking', signature: expect.stringMatching(/^sig_/) });
    expect(assistantSent.some((b) => b.type === 'tool_use')).toBe(true);

    const thinkingDeltas = eventsOf(t, 'chatDelta').filter((d) => d.kind === 'thinking');
    expect(thinkingDeltas.map((d) => d.text).join('')).toContain('Thinking about what was asked');
    const detail = value(await t.api.getConversation({ id }));
    expect(blockTypes(detail.messages[1])).toEqual(['thinking', 'text', 'tool_use']);
    expect(blockTypes(detail.messages.at(-1))).toEqual(['thinking', 'text']);
    const thinkingTokens = detail.messages[1]?.usage?.thinkingTokens ?? 0;
    expect(thinkingTokens).toBeGreaterThan(0);
    expect(detail.conversation.usage.thinkingTokens).toBeGreaterThanOrEqual(thinkingTokens);
  });

  it('answers without thinking, saying so once, when the model refuses it', async () => {
    anthropic.fake.setReject({ thinking: true });
    t = await hosts.chat(anthropic.fake);
    const id = await conversation(t, { thinking: 'adaptive', effort: 'low' });
    const { turnId } = value(await t.api.sendMessage({ conversationId: id, text: 'hello' }));
    expect((await turnEnd(t, turnId)).state).toBe('done');
    const [refused, retried] = anthropic.fake.messageRequests();
    expect(refused?.thinking).toEqual({ type: 'adaptive' });
    expect(retried?.thinking).toBeUndefined();
    expect(retried?.output_config).toBeUndefined();
    const detail = value(await t.api.getConversation({ id }));
    expect(notices(detail.messages)).toEqual([expect.stringMatching(/does not take adaptive thinking/)]);
    expect(detail.messages.at(-1)?.blocks).toEqual([{ type: 'text', text: 'You said: hello' }]);
  });
});

describe('attachments', () => {
  const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n').toString('base64');
  const png =
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

  it('sends images, PDFs and text files as image and document blocks, and keeps them with the message', async () => {
    t = await hosts.chat(anthropic.fake);
    const id = value(await t.api.createConversation({})).id;
    const { turnId } = value(
      await t.api.sendMessage({
        conversationId: id,
        text: 'What is in these?',
        attachments: [
          { type: 'image', mimeType: 'image/png', data: png, name: 'dot.png' },
          { type: 'document', name: 'spec.pdf', mimeType: 'application/pdf', data: pdf },
          { type: 'text-file', name: 'notes.md', mimeType: 'text/markdown', text: '# Notes\nhello' },
        ],
      }),
    );
    await turnEnd(t, turnId);
    const sent = anthropic.fake.messageRequests()[0]?.messages[0]?.content ?? [];
    expect(sent.map((b) => b.type)).toEqual(['image', 'document', 'document', 'text']);
    expect(sent[0]?.source).toEqual({ type: 'base64', media_type: 'image/png', data: png });
    expect(sent[1]).toMatchObject({
      title: 'spec.pdf',
      source: { type: 'base64', media_type: 'application/pdf', data: pdf },
    });
    expect(sent[2]).toMatchObject({
      title: 'notes.md',
      source: { type: 'text', media_type: 'text/plain', data: '# Notes\nhello' },
    });
    const stored = value(await t.api.getConversation({ id })).messages[0];
    expect(stored?.blocks).toMatchObject([
      { type: 'image', name: 'dot.png' },
      {
        type: 'document',
        name: 'spec.pdf',
        mimeType: 'application/pdf',
        bytes: Buffer.from(pdf, 'base64').length,
      },
      { type: 'document', name: 'notes.md', text: '# Notes\nhello', bytes: 13 },
      { type: 'text', text: 'What is in these?' },
    ]);
  });

  it('refuses a file over the limit or of a kind Claude cannot take, with one line, storing nothing', async () => {
    t = await hosts.chat(anthropic.fake);
    const id = value(await t.api.createConversation({})).id;
    const tooBig = await t.api.sendMessage({
      conversationId: id,
      text: 'big',
      attachments: [{ type: 'image', mimeType: 'image/png', data: 'A'.repeat(6_999_996), name: 'huge.png' }],
    });
    expect(tooBig.ok).toBe(false);
    if (!tooBig.ok)
      expect(tooBig.error.message).toMatch(/huge\.png is 5\.0 MB; an image may be at most 5\.0 MB/);
    const wrongKind = await t.api.sendMessage({
      conversationId: id,
      text: 'exe',
      attachments: [
        {
          type: 'document',
          name: 'a.exe',
          mimeType: 'application/x-msdownload' as 'application/pdf',
          data: 'AAAA',
        },
      ],
    });
    expect(wrongKind.ok).toBe(false);
    expect(value(await t.api.getConversation({ id })).messages).toEqual([]);
    expect(anthropic.fake.messageRequests()).toEqual([]);
  });
});

describe('long conversations: context management and compaction', () => {
  const NEAR = { input_tokens: 150_000 };

  it('near the window, asks the API to clear and compact, says so, and sends the compaction back after a reopen', async () => {
    const dir = tempDir();
    t = await hosts.create({}, { platform: new NodePlatform(dir) });
    value(await t.api.updateSettings({ baseUrl: anthropic.fake.url }));
    value(await t.api.setApiKey({ key: TEST_KEY }));
    const id = value(await t.api.createConversation({})).id;

    // Far from the window: the standard endpoint, no context management.
    anthropic.fake.enqueue({ type: 'text', text: 'A long answer.', usage: NEAR });
    const first = value(await t.api.sendMessage({ conversationId: id, text: 'first' }));
    await turnEnd(t, first.turnId);
    expect(anthropic.fake.messageRequests()[0]?.context_management).toBeUndefined();
    expect(
      anthropic.fake.requests.filter((r) => r.path === '/v1/messages')[0]?.headers['anthropic-beta'],
    ).toBeUndefined();

    // 150k of a 200k window: clear old tool uses and compact, through the beta endpoint.
    anthropic.fake.enqueue({
      type: 'text',
      text: 'Carrying on.',
      compaction: 'Summary: the user said "first".',
      appliedEdits: [
        { type: 'clear_tool_uses_20250919', cleared_tool_uses: 4, cleared_input_tokens: 12_000 },
      ],
    });
    const second = value(await t.api.sendMessage({ conversationId: id, text: 'second' }));
    expect((await turnEnd(t, second.turnId)).state).toBe('done');
    const body = anthropic.fake.messageRequests()[1];
    expect(body?.context_management?.edits.map((e) => e.type)).toEqual([
      'clear_tool_uses_20250919',
      'compact_20260112',
    ]);
    expect(body?.context_management?.edits[1]?.trigger).toEqual({ type: 'input_tokens', value: 150_000 });
    const beta = String(
      anthropic.fake.requests.filter((r) => r.path === '/v1/messages')[1]?.headers['anthropic-beta'],
    );
    expect(beta).toContain('context-management-2025-06-27');
    expect(beta).toContain('compact-2026-01-12');
    const detail = value(await t.api.getConversation({ id }));
    const answer = detail.messages.find((m) => m.role === 'assistant' && m.blocks[0]?.type === 'compaction');
    expect(answer?.blocks[0]).toMatchObject({
      type: 'compaction',
      summary: 'Summary: the user said "first".',
    });
    expect(notices(detail.messages).join('\n')).toMatch(/cleared 4 old tool results \(12,000 tokens\)/);
    expect(notices(detail.messages).join('\n')).toMatch(/was compacted/);
    // The compaction's own tokens count in the usage.
    expect(answer?.usage?.inputTokens).toBeGreaterThan(150_000);

    // Reopen: a new host on the same data, continue. The compaction goes back first in its message.
    await t.dispose();
    t = await hosts.create({}, { platform: new NodePlatform(dir) });
    const third = value(await t.api.sendMessage({ conversationId: id, text: 'third' }));
    expect((await turnEnd(t, third.turnId)).state).toBe('done');
    const reopened = anthropic.fake.messageRequests()[2];
    const withCompaction = reopened?.messages.find((m) => m.content.some((b) => b.type === 'compaction'));
    expect(withCompaction?.role).toBe('assistant');
    expect(withCompaction?.content[0]).toMatchObject({
      type: 'compaction',
      content: 'Summary: the user said "first".',
    });
    expect(
      String(anthropic.fake.requests.filter((r) => r.path === '/v1/messages')[2]?.headers['anthropic-beta']),
    ).toContain('compact-2026-01-12');
  });

  it('when the API says the conversation is too long, compacts from the minimum and goes on, never failing the turn first', async () => {
    t = await hosts.chat(anthropic.fake);
    const id = value(await t.api.createConversation({})).id;
    anthropic.fake.enqueue({
      type: 'error',
      status: 400,
      message: 'prompt is too long: 212000 tokens > 200000 maximum',
    });
    const { turnId } = value(await t.api.sendMessage({ conversationId: id, text: 'hello' }));
    expect((await turnEnd(t, turnId)).state).toBe('done');
    const retried = anthropic.fake.messageRequests()[1];
    expect(retried?.context_management?.edits.find((e) => e.type === 'compact_20260112')?.trigger).toEqual({
      type: 'input_tokens',
      value: 50_000,
    });
    const detail = value(await t.api.getConversation({ id }));
    expect(notices(detail.messages).join('\n')).toMatch(/no longer fits/);
  });

  it('without context management on the endpoint, clears old tool results itself, then fails with a way on', async () => {
    anthropic.fake.setReject({ contextManagement: true });
    t = await hosts.chat(anthropic.fake);
    const id = value(await t.api.createConversation({})).id;
    const tooLong = { type: 'error' as const, status: 400, message: 'prompt is too long' };
    anthropic.fake.enqueue(tooLong, tooLong, tooLong);
    const { turnId } = value(await t.api.sendMessage({ conversationId: id, text: 'hello' }));
    const end = await turnEnd(t, turnId);
    expect(end.state).toBe('error');
    expect(end.error?.code).toBe('context_length');
    expect(end.error?.message).toMatch(/Edit an earlier message/);
    expect(end.canRetry).toBe(true);
    const detail = value(await t.api.getConversation({ id }));
    expect(notices(detail.messages).join('\n')).toMatch(/does not take context management/);
    expect(notices(detail.messages).join('\n')).toMatch(/all but the last 3 tool results/);
  });
});
