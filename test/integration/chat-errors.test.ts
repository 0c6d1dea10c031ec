import { describe, expect, it } from 'vitest';
import { TEST_KEY, eventsOf, turnEnd, waitForEvent } from '../helpers/chat.js';
import { value } from '../helpers/host.js';
import type { TestHost } from '../helpers/host.js';
import { fakeAnthropicEachTest, hostsDisposedAfterEach } from '../helpers/tracked-hosts.js';

const anthropic = fakeAnthropicEachTest();
const hosts = hostsDisposedAfterEach();
let t: TestHost | undefined;

describe('chat errors', () => {
  it('without an API key: sendMessage fails with no_api_key, the rest of the app works', async () => {
    t = await hosts.create();
    value(await t.api.updateSettings({ baseUrl: anthropic.fake.url }));
    const { id } = value(await t.api.createConversation({}));
    const sent = await t.api.sendMessage({ conversationId: id, text: 'hello' });
    expect(sent).toMatchObject({ ok: false, error: { code: 'no_api_key' } });
    if (!sent.ok) expect(sent.error.message).not.toContain('\n');
    // Nothing was committed or sent; the conversation list and servers still answer.
    expect(value(await t.api.getConversation({ id })).messages).toEqual([]);
    expect(anthropic.fake.requests).toHaveLength(0);
    expect(value(await t.api.listServers({}))).toEqual([]);
    const models = value(await t.api.listModels({}));
    expect(models.source).toBe('default');
    expect(models.models.length).toBeGreaterThan(0);
  });

  it('a 429 is retried by the SDK (state "retrying") and the turn then succeeds', async () => {
    t = await hosts.chat(anthropic.fake);
    const { id } = value(await t.api.createConversation({}));
    anthropic.fake.enqueue(
      { type: 'error', status: 429, message: 'Slow down' },
      { type: 'text', text: 'Made it' },
    );
    const { turnId } = value(await t.api.sendMessage({ conversationId: id, text: 'hi' }));
    expect((await turnEnd(t, turnId)).state).toBe('done');
    expect(anthropic.fake.messageRequests()).toHaveLength(2);
    const retrying = eventsOf(t, 'turnState').find((s) => s.state === 'retrying');
    expect(retrying?.error).toMatchObject({ code: 'rate_limited' });
    expect(value(await t.api.getConversation({ id })).messages.at(-1)?.blocks).toEqual([
      { type: 'text', text: 'Made it' },
    ]);
  });

  it('429 after the retries, then retryTurn: a clear message, and the user can retry the turn', async () => {
    t = await hosts.chat(anthropic.fake);
    const { id } = value(await t.api.createConversation({}));
    const limited = { type: 'error', status: 429, message: 'Slow down' } as const;
    anthropic.fake.enqueue(limited, limited, limited);
    const { turnId } = value(await t.api.sendMessage({ conversationId: id, text: 'hi' }));
    const end = await turnEnd(t, turnId);
    expect(end).toMatchObject({ state: 'error', canRetry: true, error: { code: 'rate_limited' } });
    expect(end.error?.message).toMatch(/429.*Slow down/);
    expect(anthropic.fake.messageRequests()).toHaveLength(3);

    const retry = value(await t.api.retryTurn({ conversationId: id }));
    expect((await turnEnd(t, retry.turnId)).state).toBe('done');
    const messages = value(await t.api.getConversation({ id })).messages;
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('a 401 is not retried and says to check the key, in one line', async () => {
    t = await hosts.chat(anthropic.fake);
    const { id } = value(await t.api.createConversation({}));
    anthropic.fake.enqueue({ type: 'error', status: 401, message: 'invalid x-api-key' });
    const { turnId } = value(await t.api.sendMessage({ conversationId: id, text: 'hi' }));
    const end = await turnEnd(t, turnId);
    expect(end).toMatchObject({ state: 'error', error: { code: 'auth' } });
    expect(end.error?.message).toMatch(/401.*invalid x-api-key.*Settings/);
    expect(end.error?.message).not.toContain('\n');
    expect(anthropic.fake.messageRequests()).toHaveLength(1);
  });

  it('a 529 (overloaded) surfaces as overloaded after the retries', async () => {
    t = await hosts.chat(anthropic.fake);
    const { id } = value(await t.api.createConversation({}));
    const overloaded = { type: 'error', status: 529, message: 'Overloaded' } as const;
    anthropic.fake.enqueue(overloaded, overloaded, overloaded);
    const { turnId } = value(await t.api.sendMessage({ conversationId: id, text: 'hi' }));
    expect(await turnEnd(t, turnId)).toMatchObject({ state: 'error', error: { code: 'overloaded' } });
  });

  it('an unreachable endpoint is a network error naming it', async () => {
    t = await hosts.chat(anthropic.fake);
    await anthropic.fake.close();
    const { id } = value(await t.api.createConversation({}));
    const { turnId } = value(await t.api.sendMessage({ conversationId: id, text: 'hi' }));
    const end = await turnEnd(t, turnId);
    expect(end).toMatchObject({ state: 'error', error: { code: 'network' } });
    expect(end.error?.message).toContain(anthropic.fake.url);
    await anthropic.restart();
  });
});

describe('turns', () => {
  it('allows one turn per conversation at a time, and retry only where it makes sense', async () => {
    t = await hosts.chat(anthropic.fake);
    const { id } = value(await t.api.createConversation({}));
    anthropic.fake.enqueue({ type: 'hang' });
    const [one, two] = await Promise.all([
      t.api.sendMessage({ conversationId: id, text: 'first' }),
      t.api.sendMessage({ conversationId: id, text: 'second' }),
    ]);
    expect([one.ok, two.ok].sort()).toEqual([false, true]);
    expect([one, two].find((r) => !r.ok)).toMatchObject({ error: { code: 'conflict' } });
    expect(await t.api.retryTurn({ conversationId: id })).toMatchObject({
      ok: false,
      error: { code: 'conflict' },
    });
    // Stop once the hanging answer streams, so the scripted reply went to this turn.
    await waitForEvent(t, 'chatDelta');
    value(await t.api.stopTurn({ conversationId: id }));
    expect(value(await t.api.getConversation({ id })).messages.filter((m) => m.role === 'user')).toHaveLength(
      1,
    );

    const retried = value(await t.api.retryTurn({ conversationId: id }));
    expect((await turnEnd(t, retried.turnId)).state).toBe('done');
    const again = await t.api.retryTurn({ conversationId: id });
    expect(again).toMatchObject({ ok: false, error: { code: 'conflict' } });
  });
});

describe('chat settings', () => {
  it('keeps the API key in the host: the renderer sees a hint, events and settings never carry the key', async () => {
    t = await hosts.chat(anthropic.fake);
    const settings = value(await t.api.getSettings({}));
    expect(settings.apiKey).toMatchObject({ set: true, hint: 'sk-…WXYZ' });
    expect(settings.baseUrl).toBe(anthropic.fake.url);
    expect(JSON.stringify(t.events)).not.toContain(TEST_KEY);
    expect(JSON.stringify(settings)).not.toContain(TEST_KEY.slice(3, -4));

    const cleared = value(await t.api.clearApiKey({}));
    expect(cleared.apiKey.set).toBe(false);
    const invalid = await t.api.updateSettings({ baseUrl: 'file:///etc/passwd' });
    expect(invalid.ok).toBe(false);
  });

  it('fills the model picker from the models API', async () => {
    t = await hosts.chat(anthropic.fake);
    const models = value(await t.api.listModels({}));
    expect(models.source).toBe('api');
    expect(models.models.map((m) => m.id)).toContain('claude-haiku-4-5');
    value(await t.api.updateSettings({ model: 'claude-haiku-4-5' }));
    const { id } = value(await t.api.createConversation({}));
    const { turnId } = value(await t.api.sendMessage({ conversationId: id, text: 'hi' }));
    await turnEnd(t, turnId);
    expect(anthropic.fake.messageRequests()[0]?.model).toBe('claude-haiku-4-5');
    // Haiku 4.5 is priced at $1/M input and $5/M output: 100 in, 20 out.
    const usage = value(await t.api.getConversation({ id })).conversation.usage;
    expect(usage.costUsd).toBeCloseTo((100 * 1 + 20 * 5) / 1_000_000, 10);
  });
});

describe('the model list when the models API refuses the key', () => {
  it('says so in one readable line, not the raw JSON body', async () => {
    t = await hosts.chat(anthropic.fake);
    value(await t.api.setApiKey({ key: 'sk-ant-refused-0123456789' }));
    const models = value(await t.api.listModels({}));
    expect(models.source).toBe('default');
    expect(models.error).toBe('The API key was not accepted (401): invalid x-api-key. Check it in Settings.');
  });
});

describe('conversations', () => {
  it('lists, renames, searches (full-text) and deletes', async () => {
    t = await hosts.chat(anthropic.fake);
    const a = value(await t.api.createConversation({ title: 'Garden plans' }));
    const b = value(await t.api.createConversation({}));
    const { turnId } = value(
      await t.api.sendMessage({ conversationId: b.id, text: 'What about photosynthesis?' }),
    );
    await turnEnd(t, turnId);

    expect(value(await t.api.listConversations({})).map((c) => c.id)).toEqual([b.id, a.id]);
    const hits = value(await t.api.listConversations({ query: 'photosynth' }));
    expect(hits.map((c) => c.id)).toEqual([b.id]);
    expect(hits[0]?.snippet).toMatch(/photosynthesis/i);
    expect(value(await t.api.listConversations({ query: 'garden' })).map((c) => c.id)).toEqual([a.id]);
    expect(value(await t.api.listConversations({ query: '"unbalanced AND (' }))).toEqual([]);

    value(await t.api.renameConversation({ id: a.id, title: 'Vegetables' }));
    expect(value(await t.api.listConversations({ query: 'vegetables' })).map((c) => c.id)).toEqual([a.id]);
    value(await t.api.deleteConversation({ id: b.id }));
    expect(value(await t.api.listConversations({ query: 'photosynth' }))).toEqual([]);
    expect(await t.api.getConversation({ id: b.id })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });
});
