import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { promptInsert } from '../../renderer/src/features/chat/prompt-insert.js';
import type { ChatMessage } from '../../shared/model/chat.js';
import type { ContentBlockBody } from '../fixtures/fake-anthropic.js';
import { turnEnd } from '../helpers/chat.js';
import { value } from '../helpers/host.js';
import type { TestHost } from '../helpers/host.js';
import { fakeAnthropicEachTest, hostsDisposedAfterEach } from '../helpers/tracked-hosts.js';
import { everything } from '../helpers/servers.js';

const FEATURES_DOC = 'demo://resource/static/document/features.md';
const media = {
  command: process.execPath,
  args: [fileURLToPath(new URL('../fixtures/servers/media-server.mjs', import.meta.url))],
};

const anthropic = fakeAnthropicEachTest();
const hosts = hostsDisposedAfterEach();
let t: TestHost | undefined;

const texts = (blocks: readonly ContentBlockBody[] | undefined): string[] =>
  (blocks ?? []).filter((b) => b.type === 'text').map((b) => b.text ?? '');

/** The user message of the last request the fake API received. */
function lastUserContent(): ContentBlockBody[] {
  const body = anthropic.fake.messageRequests().at(-1);
  const last = body?.messages.at(-1);
  expect(last?.role).toBe('user');
  return last?.content ?? [];
}

describe('chat message context: attached resources and inserted prompts (server-everything, fake API)', () => {
  it('reads an attached resource when the message is sent and gives its text to Claude with its URI', async () => {
    t = await hosts.chat(anthropic.fake, { everything: everything() });
    const id = value(await t.api.createConversation({})).id;
    const expected = value(await t.api.readResource({ server: 'everything', target: { uri: FEATURES_DOC } }));
    const first = expected.contents[0];
    const docText = first?.kind === 'text' ? first.text : '';
    expect(docText.length).toBeGreaterThan(20);

    const started = value(
      await t.api.sendMessage({
        conversationId: id,
        text: 'Summarise the attached file',
        attachments: [{ type: 'resource', server: 'everything', uri: FEATURES_DOC }],
      }),
    );
    expect((await turnEnd(t, started.turnId)).state).toBe('done');

    const [resourceText, typed] = texts(lastUserContent());
    expect(resourceText).toMatch(
      /^<resource server="everything" uri="demo:\/\/resource\/static\/document\/features\.md"/,
    );
    expect(resourceText).toContain(docText.slice(0, 200));
    expect(typed).toBe('Summarise the attached file');

    // Stored with the message: the history shows it, and the next turn sends it again.
    const userMessage = started.userMessage;
    expect(userMessage?.blocks.find((b) => b.type === 'resource_context')).toMatchObject({
      server: 'everything',
      uri: FEATURES_DOC,
    });
    const next = value(await t.api.sendMessage({ conversationId: id, text: 'And again?' }));
    expect((await turnEnd(t, next.turnId)).state).toBe('done');
    const second = anthropic.fake.messageRequests().at(-1);
    expect(texts(second?.messages[0]?.content)[0]).toContain(docText.slice(0, 200));
  });

  it('sends an attached image resource as an image block', async () => {
    t = await hosts.chat(anthropic.fake, { media });
    const id = value(await t.api.createConversation({})).id;
    const started = value(
      await t.api.sendMessage({
        conversationId: id,
        text: 'What is this?',
        attachments: [{ type: 'resource', server: 'media', uri: 'media://pixel.png' }],
      }),
    );
    expect((await turnEnd(t, started.turnId)).state).toBe('done');
    const image = lastUserContent().find((b) => b.type === 'image');
    expect(image?.source).toMatchObject({ type: 'base64', media_type: 'image/png' });
    expect(image?.source?.data).toMatch(/^iVBOR/);
  });

  it('fails clearly, before anything is stored or sent, when an attached resource cannot be read', async () => {
    t = await hosts.chat(anthropic.fake, { everything: everything() });
    const id = value(await t.api.createConversation({})).id;
    const missing = 'demo://resource/static/document/no-such-file.md';
    const result = await t.api.sendMessage({
      conversationId: id,
      text: 'Look at this',
      attachments: [{ type: 'resource', server: 'everything', uri: missing }],
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.message).toContain(`Could not attach ${missing} from "everything"`);
    expect(result.error.message).not.toMatch(/\n|\bat .+:\d+:\d+/);
    // A server that is not configured is refused the same way (nothing is read elsewhere).
    const other = await t.api.sendMessage({
      conversationId: id,
      text: 'Look at this',
      attachments: [{ type: 'resource', server: 'nope', uri: FEATURES_DOC }],
    });
    expect(other.ok).toBe(false);
    if (!other.ok) expect(other.error.message).toContain('No server named "nope"');
    expect(anthropic.fake.messageRequests()).toHaveLength(0);
    expect(value(await t.api.getConversation({ id })).messages).toHaveLength(0);
    // The conversation is free again: a plain message goes through.
    const started = value(await t.api.sendMessage({ conversationId: id, text: 'plain' }));
    expect((await turnEnd(t, started.turnId)).state).toBe('done');
  });

  it("puts a prompt's messages into the turn in the server's order, an embedded resource with its URI", async () => {
    t = await hosts.chat(anthropic.fake, { everything: everything() });
    const id = value(await t.api.createConversation({})).id;
    const prompt = value(
      await t.api.getPrompt({
        server: 'everything',
        name: 'resource-prompt',
        arguments: { resourceType: 'Text', resourceId: '3' },
      }),
    );
    // The prompt ends with its embedded resource: both messages go, in order, and the person adds a line.
    const insert = promptInsert(prompt);
    expect(insert.text).toBe('');
    expect(insert.messages.map((m) => m.content.type)).toEqual(['text', 'resource']);

    const started = value(
      await t.api.sendMessage({ conversationId: id, text: 'Be brief.', attachments: [...insert.messages] }),
    );
    expect((await turnEnd(t, started.turnId)).state).toBe('done');
    const sent = texts(lastUserContent());
    expect(sent[0]).toContain('This prompt includes the Text resource with id: 3');
    expect(sent[1]).toMatch(/^<resource uri="demo:\/\/resource\/dynamic\/text\/3">\n/);
    expect(sent[2]).toBe('Be brief.');
    const stored = value(await t.api.getConversation({ id })).messages.find(
      (m: ChatMessage) => m.role === 'user',
    );
    expect(stored?.blocks[0]).toMatchObject({
      type: 'prompt_message',
      prompt: 'resource-prompt',
      role: 'user',
    });
  });

  it("keeps an inserted prompt's assistant message an assistant turn", async () => {
    t = await hosts.chat(anthropic.fake, { everything: everything() });
    const id = value(await t.api.createConversation({})).id;
    const insert = promptInsert({
      server: 'everything',
      name: 'dialogue',
      messages: [
        { role: 'user', content: { type: 'text', text: 'Pretend you are a pirate.' } },
        { role: 'assistant', content: { type: 'text', text: 'Arr, ready.' } },
        { role: 'user', content: { type: 'text', text: 'Greet me.' } },
      ],
    });
    expect(insert.text).toBe('Greet me.');
    const started = value(
      await t.api.sendMessage({ conversationId: id, text: insert.text, attachments: [...insert.messages] }),
    );
    expect((await turnEnd(t, started.turnId)).state).toBe('done');
    const messages = anthropic.fake.messageRequests().at(-1)?.messages ?? [];
    expect(messages.map((m) => [m.role, texts(m.content).join('|')])).toEqual([
      ['user', 'Pretend you are a pirate.'],
      ['assistant', 'Arr, ready.'],
      ['user', 'Greet me.'],
    ]);
  });
});
