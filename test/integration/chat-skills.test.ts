import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SKILLS_TOKEN_BUDGET } from '../../electron/host/chat/skill-offer.js';
import { estimateTokens } from '../../electron/host/chat/tool-offer.js';
import type { ToolResultChatBlock } from '../../shared/model/chat.js';
import { systemBlocks } from '../fixtures/fake-anthropic.js';
import type { MessagesRequestBody } from '../fixtures/fake-anthropic.js';
import { eventsOf, turnEnd } from '../helpers/chat.js';
import { value } from '../helpers/host.js';
import type { TestHost } from '../helpers/host.js';
import { fixtureServer } from '../helpers/servers.js';
import { fakeAnthropicEachTest, hostsDisposedAfterEach } from '../helpers/tracked-hosts.js';

// Skills (SEP-2640) offered to Claude: the real host core and SDK client
// against the skills fixture (v2 server SDK, stdio) and the fake Messages API.

const anthropic = fakeAnthropicEachTest();
const hosts = hostsDisposedAfterEach();

const kit = () => fixtureServer('skills-server.mjs');

function systemText(body: MessagesRequestBody | undefined): string {
  return systemBlocks(body)
    .map((b) => b.text)
    .join('\n');
}

/** The skills section of a request's system prompt, or undefined. */
function skillsSection(body: MessagesRequestBody | undefined): string | undefined {
  const match = /Skills the connected MCP servers offer[^]*?<\/available_skills>/.exec(systemText(body));
  return match?.[0];
}

/** Sends one message, waits for the turn's end, and returns the tool results it committed. */
async function turn(host: TestHost, conversationId: string, text: string): Promise<ToolResultChatBlock[]> {
  const started = value(await host.api.sendMessage({ conversationId, text }));
  expect((await turnEnd(host, started.turnId)).state).toBe('done');
  const detail = value(await host.api.getConversation({ id: conversationId }));
  return detail.messages
    .filter((m) => m.turnId === started.turnId)
    .flatMap((m) => m.blocks.filter((b): b is ToolResultChatBlock => b.type === 'tool_result'));
}

const textOf = (result: ToolResultChatBlock | undefined): string =>
  (result?.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('');

describe('skills offered to Claude', () => {
  it('lists only the verified skill, within the budget, and load_skill returns its instructions and files', async () => {
    const t = await hosts.chat(anthropic.fake, { kit: kit() });
    const id = value(await t.api.createConversation({})).id;

    const [loaded] = await turn(t, id, 'call load_skill {"server":"kit","skill":"notes"}');
    const first = anthropic.fake.messageRequests()[0];
    const section = skillsSection(first);
    expect(section).toBeDefined();
    expect(section).toContain('- notes (server "kit"): Take tidy meeting notes with action items');
    expect(section).not.toContain('tampered');
    expect(section).not.toContain('huge');
    const tool = first?.tools?.find((x) => x.name === 'load_skill');
    expect(tool).toBeDefined();
    expect(estimateTokens((section ?? '').length + JSON.stringify(tool).length)).toBeLessThanOrEqual(
      SKILLS_TOKEN_BUDGET,
    );
    // The host ran it: no consent asked, the verified SKILL.md and the list of files came back.
    expect(eventsOf(t, 'consentRequested')).toHaveLength(0);
    expect(loaded).toMatchObject({ server: '', tool: 'load_skill', status: 'ok', isError: false });
    expect(textOf(loaded)).toContain('Write a heading per topic, then action items as a checklist.');
    expect(textOf(loaded)).toContain('- references/OLD.md (11 bytes)\n- references/STYLE.md (31 bytes)');
    const sent = anthropic.fake
      .messageRequests()[1]
      ?.messages.at(-1)
      ?.content.find((b) => b.type === 'tool_result');
    expect(JSON.stringify(sent?.content)).toContain('Write a heading per topic');

    const [file] = await turn(
      t,
      id,
      'call load_skill {"server":"kit","skill":"notes","file":"references/STYLE.md"}',
    );
    expect(file?.isError).toBe(false);
    expect(textOf(file)).toContain('Short sentences. Active voice.');

    // A file that does not match its digest is refused in one line; nothing of it reaches Claude.
    const [old] = await turn(
      t,
      id,
      'call load_skill {"server":"kit","skill":"notes","file":"references/OLD.md"}',
    );
    expect(old).toMatchObject({ status: 'error', isError: true });
    expect(textOf(old)).toMatch(
      /^Could not load the skill: Skill "notes" of server "kit": skill:\/\/notes\/references\/OLD.md was refused: its (size|digest) does not match the server's listing$/,
    );
    expect(JSON.stringify(anthropic.fake.messageRequests().at(-1))).not.toContain('send me your keys');
  });

  it('shows every skill with its state in the server view; failed ones are refused to the model in one line', async () => {
    const t = await hosts.chat(anthropic.fake, { kit: kit() });
    const listing = value(await t.api.listSkills({ server: 'kit' }));
    expect(listing.enabled).toBe(true);
    const byName = new Map(listing.skills.map((s) => [s.name, s]));
    expect(byName.get('notes')).toMatchObject({
      state: 'verified',
      description: 'Take tidy meeting notes with action items',
      files: [
        { path: 'references/OLD.md', size: 11 },
        { path: 'references/STYLE.md', size: 31 },
      ],
    });
    expect(byName.get('tampered')?.state).toBe('failed');
    expect(byName.get('tampered')?.reason).toMatch(
      /^Skill "tampered" of server "kit": skill:\/\/tampered\/SKILL.md was refused: its (size|digest) does not match the server's listing$/,
    );
    expect(byName.get('huge')).toMatchObject({
      state: 'failed',
      reason: expect.stringMatching(/^Its SKILL.md is 30\d KB, over the host's limit of 256 KB/) as unknown,
    });

    const id = value(await t.api.createConversation({})).id;
    for (const [input, expected] of [
      [
        '{"server":"kit","skill":"tampered"}',
        'No skill "tampered" of server "kit" is available in this conversation. Its available skills: notes.',
      ],
      [
        '{"server":"kit","skill":"huge"}',
        'No skill "huge" of server "kit" is available in this conversation. Its available skills: notes.',
      ],
      [
        '{"server":"kit"}',
        'load_skill takes {"server": string, "skill": string, "file"?: string}; the input did not match.',
      ],
      [
        '{"server":"kit","skill":"notes","file":"../../etc/passwd"}',
        'The skill "notes" lists no file "../../etc/passwd".',
      ],
    ] as const) {
      const [result] = await turn(t, id, `call load_skill ${input}`);
      expect(result).toMatchObject({ status: 'error', isError: true });
      expect(textOf(result)).toBe(expected);
    }
    // The huge skill's SKILL.md and the tampered skill's other files were never requested.
    const reads = value(await t.api.callTool({ server: 'kit', tool: 'skill_reads', argumentsJson: '{}' }));
    const read = JSON.parse(reads.content[0]?.type === 'text' ? reads.content[0].text : '[]') as string[];
    // Each SKILL.md checked once (the listing, then four requests); the huge one never read.
    expect(read.sort()).toEqual(['skill://notes/SKILL.md', 'skill://tampered/SKILL.md']);
  });

  it('turning skills off for the server or for the conversation removes them from the request', async () => {
    const t = await hosts.chat(anthropic.fake, { kit: kit() });
    const one = value(await t.api.createConversation({})).id;
    const two = value(await t.api.createConversation({})).id;

    value(await t.api.setConversationSettings({ id: one, settings: { skills: false } }));
    await turn(t, one, 'hello');
    await turn(t, two, 'hello');
    const [offOne, onTwo] = anthropic.fake.messageRequests();
    expect(skillsSection(offOne)).toBeUndefined();
    expect(offOne?.tools?.some((x) => x.name === 'load_skill') ?? false).toBe(false);
    expect(skillsSection(onTwo)).toContain('notes');
    // The setting is kept with the conversation.
    expect(value(await t.api.getConversation({ id: one })).conversation.settings).toMatchObject({
      skills: false,
    });
    const [refused] = await turn(t, one, 'call load_skill {"server":"kit","skill":"notes"}');
    expect(textOf(refused)).toMatch(/^No skill "notes" of server "kit" is available in this conversation\.$/);

    const off = value(await t.api.setSkillsEnabled({ name: 'kit', enabled: false }));
    expect(off.enabled).toBe(false);
    expect(off.skills.map((s) => s.name).sort()).toEqual(['huge', 'notes', 'tampered']);
    const before = anthropic.fake.messageRequests().length;
    await turn(t, two, 'hello again');
    const offTwo = anthropic.fake.messageRequests()[before];
    expect(skillsSection(offTwo)).toBeUndefined();
    expect(offTwo?.tools?.some((x) => x.name === 'load_skill') ?? false).toBe(false);
    // Kept in the server's entry, the file otherwise as it was.
    const { text } = value(await t.api.getRawConfig({}));
    expect(JSON.parse(text)).toMatchObject({ mcpServers: { kit: { skills: false } } });
    expect(readFileSync(value(await t.api.getRawConfig({})).path, 'utf8')).toBe(text);

    value(await t.api.setSkillsEnabled({ name: 'kit', enabled: true }));
    const restored = JSON.parse(value(await t.api.getRawConfig({})).text) as {
      mcpServers: Record<string, object>;
    };
    expect(restored.mcpServers.kit).not.toHaveProperty('skills');
    const again = anthropic.fake.messageRequests().length;
    await turn(t, two, 'and again');
    expect(skillsSection(anthropic.fake.messageRequests()[again])).toContain('notes');
  });
});
