import { chmodSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { turnEnd } from '../helpers/chat.js';
import { value } from '../helpers/host.js';
import type { TestHost } from '../helpers/host.js';
import { fakeAnthropicEachTest, hostsDisposedAfterEach } from '../helpers/tracked-hosts.js';

const anthropic = fakeAnthropicEachTest();
const hosts = hostsDisposedAfterEach();
let t: TestHost;
beforeEach(async () => {
  t = await hosts.chat(anthropic.fake);
});

const texts = (messages: { blocks: { type: string; text?: string }[] }[]) =>
  messages.map((m) => m.blocks.map((b) => b.text ?? `[${b.type}]`).join(' '));

async function say(id: string, text: string): Promise<void> {
  const { turnId } = value(await t.api.sendMessage({ conversationId: id, text }));
  await turnEnd(t, turnId);
}

describe('conversation branches', () => {
  it('edits an earlier message and resends it; the old branch stays reachable', async () => {
    const id = value(await t.api.createConversation({})).id;
    await say(id, 'one');
    await say(id, 'two');
    const before = value(await t.api.getConversation({ id })).messages;
    expect(texts(before)).toEqual(['one', 'You said: one', 'two', 'You said: two']);

    const edited = value(
      await t.api.editMessage({ conversationId: id, messageId: before[0]?.id ?? '', text: 'uno' }),
    );
    expect(edited.userMessage?.parentId).toBeUndefined();
    expect(edited.userMessage?.branch).toMatchObject({ index: 2, count: 2 });
    await turnEnd(t, edited.turnId);
    // Claude saw only the new branch.
    const sent = anthropic.fake.messageRequests().at(-1)?.messages ?? [];
    expect(sent.map((m) => m.content.map((b) => b.text).join(''))).toEqual(['uno']);
    const after = value(await t.api.getConversation({ id })).messages;
    expect(texts(after)).toEqual(['uno', 'You said: uno']);
    expect(after[0]?.branch?.siblingIds).toEqual([before[0]?.id, after[0]?.id]);

    // Back to the first version: the whole old branch, to its newest message.
    const old = value(await t.api.switchBranch({ conversationId: id, messageId: before[0]?.id ?? '' }));
    expect(texts(old.messages)).toEqual(['one', 'You said: one', 'two', 'You said: two']);
    expect(old.messages[0]?.branch).toMatchObject({ index: 1, count: 2 });
    // And the conversation stays on the branch it shows.
    expect(texts(value(await t.api.getConversation({ id })).messages)).toEqual(texts(old.messages));
  });

  it('regenerates the last answer beside the old one', async () => {
    const id = value(await t.api.createConversation({})).id;
    await say(id, 'hello');
    anthropic.fake.enqueue({ type: 'text', text: 'A second answer.' });
    const again = value(await t.api.regenerateAnswer({ conversationId: id }));
    await turnEnd(t, again.turnId);
    const messages = value(await t.api.getConversation({ id })).messages;
    expect(texts(messages)).toEqual(['hello', 'A second answer.']);
    expect(messages[1]?.branch).toMatchObject({ index: 2, count: 2 });
    const request = anthropic.fake.messageRequests().at(-1);
    expect(request?.messages.map((m) => m.role)).toEqual(['user']);
    const first = value(
      await t.api.switchBranch({ conversationId: id, messageId: messages[1]?.branch?.siblingIds[0] ?? '' }),
    );
    expect(texts(first.messages)).toEqual(['hello', 'You said: hello']);
  });

  it('refuses to edit a message that is not the person’s, with one line', async () => {
    const id = value(await t.api.createConversation({})).id;
    await say(id, 'hello');
    const answer = value(await t.api.getConversation({ id })).messages[1];
    const refused = await t.api.editMessage({ conversationId: id, messageId: answer?.id ?? '', text: 'x' });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.message).toBe('Only your own messages can be edited');
  });
});

describe('export', () => {
  it('writes Markdown and JSON of the branch shown, never over an existing file', async () => {
    const id = value(await t.api.createConversation({ title: 'Plans: Q3/Q4' })).id;
    await say(id, 'hello');
    const folder = mkdtempSync(join(tmpdir(), 'mcp-export-'));
    const md = value(await t.api.exportConversation({ id, format: 'markdown', folder }));
    expect(md.path).toBe(join(folder, 'Plans Q3 Q4.md'));
    const text = readFileSync(md.path, 'utf8');
    expect(text).toMatch(/^# Plans: Q3\/Q4\n/);
    expect(text).toContain('## You\n\nhello');
    expect(text).toContain('## Claude\n\nYou said: hello');
    const again = value(await t.api.exportConversation({ id, format: 'markdown', folder }));
    expect(again.path).toBe(join(folder, 'Plans Q3 Q4 (2).md'));
    const json = value(await t.api.exportConversation({ id, format: 'json', folder }));
    const parsed = JSON.parse(readFileSync(json.path, 'utf8')) as { format: string; messages: unknown[] };
    expect(parsed.format).toBe('mcp-host-conversation');
    expect(parsed.messages).toHaveLength(2);
  });

  it('says clearly when the folder cannot be written, or does not exist', async () => {
    const id = value(await t.api.createConversation({})).id;
    // A read-only folder; root may write to any mode, but not into /sys.
    const locked = process.getuid?.() === 0 ? '/sys' : mkdtempSync(join(tmpdir(), 'mcp-export-locked-'));
    if (locked !== '/sys') chmodSync(locked, 0o500);
    const denied = await t.api.exportConversation({ id, format: 'json', folder: locked });
    expect(denied.ok).toBe(false);
    if (!denied.ok) expect(denied.error.message).toMatch(new RegExp(`^Cannot write to ${locked}: `));
    const missing = await t.api.exportConversation({ id, format: 'json', folder: '/no/such/folder' });
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(missing.error.message).toMatch(/^Cannot write to \/no\/such\/folder: /);
    const relative = await t.api.exportConversation({ id, format: 'json', folder: 'relative/dir' });
    expect(relative.ok).toBe(false);
    if (!relative.ok)
      expect(relative.error.message).toBe('The folder must be an absolute path: relative/dir');
  });
});
