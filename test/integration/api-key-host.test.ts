import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic } from '../fixtures/fake-anthropic.js';
import type { FakeAnthropic } from '../fixtures/fake-anthropic.js';
import { TEST_KEY, turnEnd } from '../helpers/chat.js';
import { createTestHost, value } from '../helpers/host.js';
import type { TestHost } from '../helpers/host.js';

/** The key is bound to the host it was entered for; another base URL gets it only when allowed. */

let first: FakeAnthropic;
let second: FakeAnthropic;
let t: TestHost;

beforeEach(async () => {
  first = await startFakeAnthropic();
  second = await startFakeAnthropic();
  t = await createTestHost();
  value(await t.api.updateSettings({ baseUrl: first.url }));
  value(await t.api.setApiKey({ key: TEST_KEY }));
});
afterEach(async () => {
  await t.dispose();
  await first.close();
  await second.close();
});

/** Every key any request to this fake carried. */
const keysSeen = (fake: FakeAnthropic) =>
  fake.requests.map((r) => r.headers['x-api-key'] ?? r.headers.authorization).filter((k) => k !== undefined);

async function chatOnce(): Promise<{ ok: boolean; code?: string }> {
  const conversation = value(await t.api.createConversation({}));
  const sent = await t.api.sendMessage({ conversationId: conversation.id, text: 'hello' });
  if (!sent.ok) return { ok: false, code: sent.error.code };
  await turnEnd(t, sent.value.turnId);
  return { ok: true };
}

describe('the API key follows the base URL only when allowed', () => {
  it('the model list says the saved key is held back from this host, not that none is set', async () => {
    value(await t.api.updateSettings({ baseUrl: second.url }));
    const list = value(await t.api.listModels({}));
    expect(list.source).toBe('default');
    expect(list.error).toBe(
      `the saved key is not sent to ${new URL(second.url).origin} (it was saved for ${new URL(first.url).origin})`,
    );
    expect(list.error).not.toContain('No API key');
    expect(keysSeen(second)).toEqual([]);
    // With no key at all, it still says so.
    value(await t.api.clearApiKey({}));
    expect(value(await t.api.listModels({})).error).toBe('No API key is set');
  });

  it('a base URL on another host holds the key back until the person allows it there', async () => {
    first.enqueue({ type: 'text', text: 'hi' });
    expect(await chatOnce()).toEqual({ ok: true });
    expect(first.messageKeys()).toEqual([TEST_KEY]);

    const moved = value(await t.api.updateSettings({ baseUrl: second.url }));
    expect(moved.apiKey).toEqual({
      set: false,
      hint: 'sk-…WXYZ',
      encrypted: false,
      storage: 'obfuscated-file',
      heldFor: new URL(first.url).origin,
    });
    expect(await chatOnce()).toEqual({ ok: false, code: 'no_api_key' });
    expect(value(await t.api.listModels({})).source).toBe('default');
    expect(keysSeen(second)).toEqual([]);

    const wrong = await t.api.updateSettings({ allowKeyFor: 'https://evil.example' });
    expect(wrong).toMatchObject({ ok: false, error: { code: 'invalid_params' } });
    expect(keysSeen(second)).toEqual([]);

    const allowed = value(await t.api.updateSettings({ allowKeyFor: new URL(second.url).origin }));
    expect(allowed.apiKey).toEqual({
      set: true,
      hint: 'sk-…WXYZ',
      encrypted: false,
      storage: 'obfuscated-file',
    });
    second.enqueue({ type: 'text', text: 'hi' });
    expect(await chatOnce()).toEqual({ ok: true });
    expect(second.messageKeys()).toEqual([TEST_KEY]);
  });

  it('entering the key again binds it to the new host; a trailing slash is the same host', async () => {
    value(await t.api.updateSettings({ baseUrl: second.url }));
    const reentered = value(await t.api.setApiKey({ key: `${TEST_KEY}-2` }));
    expect(reentered.apiKey.set).toBe(true);
    value(await t.api.updateSettings({ baseUrl: `${second.url}/` }));
    expect(value(await t.api.getSettings({})).apiKey.set).toBe(true);
  });

  it('the key and the base URL change together only with the confirmation in the same request', async () => {
    const both = value(
      await t.api.updateSettings({ baseUrl: second.url, allowKeyFor: new URL(second.url).origin }),
    );
    expect(both.apiKey.set).toBe(true);
  });

  it('plain http is accepted for loopback addresses only', async () => {
    for (const url of ['http://localhost:8080', 'http://127.0.0.2:1', 'http://[::1]:9', 'https://x.example'])
      expect((await t.api.updateSettings({ baseUrl: url })).ok).toBe(true);
    for (const url of ['http://x.example', 'http://10.0.0.1', 'http://127.0.0.1.evil.example']) {
      const refused = await t.api.updateSettings({ baseUrl: url });
      expect(refused).toMatchObject({
        ok: false,
        error: { code: 'invalid_params', message: expect.stringContaining('must use https://') },
      });
    }
  });
});
