import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../shared/model/chat.js';
import type { ContentBlockBody, MessagesRequestBody } from '../fixtures/fake-anthropic.js';
import { turnEnd, waitForEvent } from '../helpers/chat.js';
import { value } from '../helpers/host.js';
import type { TestHost } from '../helpers/host.js';
import { fakeAnthropicEachTest, hostsDisposedAfterEach } from '../helpers/tracked-hosts.js';
import { everything, fixtureServer } from '../helpers/servers.js';

/** 60 tools: past the default threshold of 30, so tool search is on. */
const manyTools = () => fixtureServer('many-tools-server.mjs', '--count', '60');

const anthropic = fakeAnthropicEachTest();
const hosts = hostsDisposedAfterEach();
let t: TestHost | undefined;

const SEARCH_TYPE = 'tool_search_tool_bm25_20251119';
const mcpTools = (body: MessagesRequestBody | undefined) =>
  (body?.tools ?? []).filter((tool) => tool.type === undefined);
const searchTool = (body: MessagesRequestBody | undefined) =>
  body?.tools?.find((tool) => tool.type === SEARCH_TYPE);

async function send(host: TestHost, text: string): Promise<{ id: string; turnId: string }> {
  const id = value(await host.api.createConversation({})).id;
  const { turnId } = value(await host.api.sendMessage({ conversationId: id, text }));
  return { id, turnId };
}

async function allowNextTool(host: TestHost, from = 0): Promise<void> {
  const request = await waitForEvent(host, 'consentRequested', () => true, from);
  value(await host.api.answerConsent({ id: request.id, answer: { decision: 'allow-once' } }));
}

describe('tool search (real SDK against the fake Messages API)', () => {
  it('defers every definition past the threshold and sends the tool search tool; below it, neither', async () => {
    t = await hosts.chat(anthropic.fake, { many: manyTools(), everything: everything() });
    const { turnId } = await send(t, 'hello');
    expect((await turnEnd(t, turnId)).state).toBe('done');
    const body = anthropic.fake.messageRequests()[0];
    const tools = mcpTools(body);
    const everythingTools = value(await t.api.listServers({})).find((s) => s.name === 'everything')?.tools
      .length;
    expect(tools.length).toBe(60 + (everythingTools ?? 0));
    expect(tools.every((tool) => tool.defer_loading === true)).toBe(true);
    expect(searchTool(body)).toMatchObject({
      name: 'tool_search_tool_bm25',
      cache_control: { type: 'ephemeral' },
    });
    expect(body?.tools?.at(-1)?.type).toBe(SEARCH_TYPE);
    expect(JSON.stringify(body?.system)).toContain('tool search tool');

    // Below the threshold (server-everything alone: under 30 tools), every definition is loaded.
    await t.dispose();
    t = await hosts.chat(anthropic.fake, { everything: everything() });
    const second = await send(t, 'hello again');
    await turnEnd(t, second.turnId);
    const small = anthropic.fake.messageRequests().at(-1);
    expect(searchTool(small)).toBeUndefined();
    expect(mcpTools(small).length).toBe(everythingTools);
    expect(mcpTools(small).some((tool) => tool.defer_loading === true)).toBe(false);
  });

  it('keeps pinned tools loaded, and follows the threshold and mode in Settings', async () => {
    t = await hosts.chat(anthropic.fake, { many: manyTools() });
    value(await t.api.setToolPinned({ server: 'many', tool: 'tool_3', pinned: true }));
    const first = await send(t, 'hello');
    await turnEnd(t, first.turnId);
    const body = anthropic.fake.messageRequests()[0];
    const pinned = body?.tools?.find((tool) => tool.name === 'many__tool_3');
    expect(pinned).toBeDefined();
    expect(pinned?.defer_loading).toBeUndefined();
    expect(mcpTools(body).filter((tool) => tool.defer_loading === true)).toHaveLength(59);

    value(await t.api.updateSettings({ toolSearch: { minTools: 100 } }));
    const second = await send(t, 'hello');
    await turnEnd(t, second.turnId);
    expect(searchTool(anthropic.fake.messageRequests()[1])).toBeUndefined();
    value(await t.api.updateSettings({ toolSearch: { mode: 'always' } }));
    const third = await send(t, 'hello');
    await turnEnd(t, third.turnId);
    expect(searchTool(anthropic.fake.messageRequests()[2])).toBeDefined();
  });

  it('records a tool Claude found by searching, and sends the search back with the next request', async () => {
    t = await hosts.chat(anthropic.fake, { many: manyTools() });
    const { id, turnId } = await send(t, 'call tool_42 {"note":"hi"}');
    await allowNextTool(t);
    expect((await turnEnd(t, turnId)).state).toBe('done');

    const detail = value(await t.api.getConversation({ id }));
    const assistant = detail.messages[1] as ChatMessage;
    expect(assistant.blocks.map((b) => b.type)).toEqual(['text', 'tool_search', 'tool_use']);
    expect(assistant.blocks[1]).toMatchObject({
      type: 'tool_search',
      found: [{ server: 'many', tool: 'tool_42' }],
    });
    expect(assistant.blocks[2]).toMatchObject({ type: 'tool_use', tool: 'tool_42', foundBySearch: true });
    const result = detail.messages[2]?.blocks[0];
    expect(result).toMatchObject({
      type: 'tool_result',
      content: [{ type: 'text', text: 'called tool_42' }],
    });

    // The follow-up request carries the search as the API wrote it (the fake refuses a
    // reference to a tool it does not know), and the tool Claude used is now loaded.
    const second = anthropic.fake.messageRequests()[1];
    const sent = second?.messages[1]?.content ?? [];
    expect(sent.map((b) => b.type)).toEqual([
      'text',
      'server_tool_use',
      'tool_search_tool_result',
      'tool_use',
    ]);
    const searchResult = sent[2]?.content as unknown as ContentBlockBody;
    expect(searchResult.tool_references).toEqual([{ type: 'tool_reference', tool_name: 'many__tool_42' }]);
    expect(second?.tools?.find((tool) => tool.name === 'many__tool_42')?.defer_loading).toBeUndefined();
  });

  it('falls back to sending every definition, with one notice, on an endpoint that rejects tool search', async () => {
    anthropic.fake.setReject({ toolSearch: true });
    t = await hosts.chat(anthropic.fake, { many: manyTools() });
    const { id, turnId } = await send(t, 'hello');
    expect((await turnEnd(t, turnId)).state).toBe('done');
    const [refused, retried] = anthropic.fake.messageRequests();
    expect(searchTool(refused)).toBeDefined();
    expect(searchTool(retried)).toBeUndefined();
    expect(mcpTools(retried)).toHaveLength(60);
    expect(mcpTools(retried).some((tool) => tool.defer_loading === true)).toBe(false);
    const detail = value(await t.api.getConversation({ id }));
    const said = detail.messages.flatMap((m) => m.blocks.filter((b) => b.type === 'notice'));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatchObject({
      code: 'tool_search',
      text: expect.stringMatching(/all 60 tool definitions/),
    });
    expect(detail.messages.at(-1)?.blocks[0]).toMatchObject({ type: 'text', text: 'You said: hello' });

    // The endpoint is remembered: the next turn asks once, without the search tool, and says nothing again.
    const count = anthropic.fake.messageRequests().length;
    const next = value(await t.api.sendMessage({ conversationId: id, text: 'more' }));
    await turnEnd(t, next.turnId);
    expect(anthropic.fake.messageRequests()).toHaveLength(count + 1);
    expect(searchTool(anthropic.fake.messageRequests().at(-1))).toBeUndefined();
    const again = value(await t.api.getConversation({ id }));
    expect(again.messages.flatMap((m) => m.blocks.filter((b) => b.type === 'notice'))).toHaveLength(1);
  });
});

describe('a server that lists 100,010 tools', () => {
  it('is capped per server with a warning, calls a kept tool by name, and offers only the kept ones', async () => {
    t = await hosts.chat(anthropic.fake, { huge: fixtureServer('many-tools-server.mjs') });
    const snapshot = value(await t.api.listServers({})).find((s) => s.name === 'huge');
    expect(snapshot?.status).toBe('connected');
    expect(snapshot?.tools).toHaveLength(1000);
    expect(snapshot?.toolsCapped).toEqual({ listed: 100_010, kept: 1000 });
    expect(snapshot?.stderrTail.join('\n')).toMatch(/lists 100,010 tools; only the first 1,000 are kept/);

    const called = value(await t.api.callTool({ server: 'huge', tool: 'tool_999', argumentsJson: '{}' }));
    expect(called.content).toEqual([{ type: 'text', text: 'called tool_999' }]);
    const beyond = await t.api.callTool({ server: 'huge', tool: 'tool_5000', argumentsJson: '{}' });
    expect(beyond.ok).toBe(false);

    const { turnId } = await send(t, 'hello');
    await turnEnd(t, turnId);
    const body = anthropic.fake.messageRequests()[0];
    expect(mcpTools(body)).toHaveLength(1000);
    expect(mcpTools(body).every((tool) => tool.defer_loading === true)).toBe(true);
  });
});

describe('tools a conversation turned off', () => {
  it('are not offered, and a call to one is refused without asking', async () => {
    t = await hosts.chat(anthropic.fake, { many: fixtureServer('many-tools-server.mjs', '--count', '5') });
    const id = value(await t.api.createConversation({})).id;
    value(
      await t.api.setConversationSettings({
        id,
        settings: { inactiveTools: [{ server: 'many', tool: 'tool_2' }] },
      }),
    );
    anthropic.fake.enqueue({ type: 'tool_use', name: 'many__tool_2', input: {} });
    const { turnId } = value(await t.api.sendMessage({ conversationId: id, text: 'go' }));
    expect((await turnEnd(t, turnId)).state).toBe('done');
    expect(mcpTools(anthropic.fake.messageRequests()[0]).map((tool) => tool.name)).toEqual([
      'many__tool_0',
      'many__tool_1',
      'many__tool_3',
      'many__tool_4',
    ]);
    const result = value(await t.api.getConversation({ id })).messages[2]?.blocks[0];
    expect(result).toMatchObject({
      type: 'tool_result',
      status: 'error',
      // Not offered, so its name means nothing to the host: the call cannot reach the server.
      content: [{ type: 'text', text: 'There is no tool named "many__tool_2".' }],
    });
    expect(t.events.some((e) => e.event === 'consentRequested')).toBe(false);
  });
});
