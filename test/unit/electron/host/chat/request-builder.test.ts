import { describe, expect, it } from 'vitest';
import { buildMessages, buildSystem } from '../../../../../electron/host/chat/request-builder.js';
import { offerTools } from '../../../../../electron/host/chat/tool-offer.js';
import { DEFAULT_TOOL_SEARCH } from '../../../../../shared/model/settings.js';
import { ToolNameTable } from '../../../../../electron/host/chat/tool-names.js';
import { toApiToolResult } from '../../../../../electron/host/chat/tool-result-mapping.js';
import type { ChatMessage, ToolResultChatBlock } from '../../../../../shared/model/chat.js';
import type { ServerSnapshot } from '../../../../../shared/model/server.js';

function server(
  name: string,
  status: ServerSnapshot['status'],
  tools: ServerSnapshot['tools'],
  instructions?: string,
): ServerSnapshot {
  return {
    name,
    transport: 'stdio',
    target: 'x',
    status,
    capabilities: { tools: true, resources: false, prompts: false, logging: false },
    tools,
    counts: { tools: tools.length, resources: 0, prompts: 0 },
    stderrTail: [],
    ...(instructions !== undefined ? { instructions } : {}),
  };
}
const schema = { type: 'object', properties: {} };

let seq = 0;
function message(role: ChatMessage['role'], blocks: ChatMessage['blocks']): ChatMessage {
  return { id: `m${String(seq++)}`, conversationId: 'c', turnId: 't', role, blocks, createdAt: 0 };
}

const offerOptions = { settings: DEFAULT_TOOL_SEARCH, pinned: [] };
const buildTools = (servers: ServerSnapshot[]) => offerTools(servers, offerOptions);

describe('offerTools / buildSystem', () => {
  it('offers only tools of connected servers that are not disabled, last one cached', () => {
    const { tools } = buildTools([
      server('on', 'connected', [
        { name: 'a', inputSchema: schema },
        { name: 'off', inputSchema: schema, disabled: true },
      ]),
      server('down', 'disabled', [{ name: 'b', inputSchema: schema }]),
      server('failed', 'failed', [{ name: 'c', inputSchema: schema }]),
    ]);
    expect(tools.map((t) => t.name)).toEqual(['on__a']);
    expect(tools[0]?.cache_control).toEqual({ type: 'ephemeral' });
    expect(tools[0] && 'description' in tools[0] ? tools[0].description : '').toContain('MCP server "on"');
  });

  it("labels each connected server's instructions and caches the system prompt", () => {
    const system = buildSystem([
      server('one', 'connected', [], 'Use one wisely'),
      server('two', 'stopped', [], 'Ignored while stopped'),
    ]);
    expect(system).toHaveLength(1);
    expect(system[0]?.text).toContain(
      '<server_instructions server="one">\nUse one wisely\n</server_instructions>',
    );
    expect(system[0]?.text).not.toContain('Ignored while stopped');
    expect(system[0]?.cache_control).toEqual({ type: 'ephemeral' });
  });
});

describe('buildMessages', () => {
  const table = new ToolNameTable([{ server: 's', tool: 't' }]);
  const use = (id: string) => ({
    type: 'tool_use' as const,
    id,
    server: 's',
    tool: 't',
    inputJson: '{"x":1}',
  });
  const result = (id: string): ToolResultChatBlock => ({
    type: 'tool_result',
    toolUseId: id,
    server: 's',
    tool: 't',
    status: 'ok',
    isError: false,
    content: [{ type: 'text', text: `result ${id}` }],
  });

  it('sends tool results as user content, one per committed tool message, and skips notices', () => {
    const out = buildMessages(
      [
        message('user', [{ type: 'text', text: 'go' }]),
        message('assistant', [{ type: 'text', text: 'ok' }, use('u1'), use('u2')]),
        message('tool', [result('u1')]),
        message('tool', [result('u2')]),
        message('notice', [{ type: 'notice', level: 'info', text: 'Stopped.' }]),
      ],
      table,
    );
    expect(out.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(out[1]?.content).toContainEqual({ type: 'tool_use', id: 'u1', name: 's__t', input: { x: 1 } });
    const last = out[2]?.content as { type: string; tool_use_id?: string; cache_control?: unknown }[];
    expect(last.map((b) => b.tool_use_id)).toEqual(['u1', 'u2']);
    expect(last.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
  });

  it('closes a tool_use left without a result (host killed mid-call) with an "interrupted" error', () => {
    const out = buildMessages(
      [
        message('user', [{ type: 'text', text: 'go' }]),
        message('assistant', [use('u1'), use('u2')]),
        message('tool', [result('u1')]),
        message('user', [{ type: 'text', text: 'again' }]),
      ],
      table,
    );
    expect(out.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    const content = out[2]?.content as {
      type: string;
      tool_use_id?: string;
      is_error?: boolean;
      text?: string;
    }[];
    expect(content.map((b) => [b.type, b.tool_use_id, b.is_error])).toEqual([
      ['tool_result', 'u1', undefined],
      ['tool_result', 'u2', true],
      ['text', undefined, undefined],
    ]);
  });
});

describe('toApiToolResult', () => {
  const base: Omit<ToolResultChatBlock, 'content'> = {
    type: 'tool_result',
    toolUseId: 'u',
    server: 's',
    tool: 't',
    status: 'ok',
    isError: false,
  };

  it('passes text and images, summarises audio, resources, links and structured content', () => {
    const mapped = toApiToolResult({
      ...base,
      content: [
        { type: 'text', text: 'hello' },
        { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
        { type: 'audio', mimeType: 'audio/wav', data: 'AAAAAAAA' },
        { type: 'resource', uri: 'file:///a.txt', mimeType: 'text/plain', text: 'inside' },
        { type: 'resource', uri: 'file:///b.bin', blobBytes: 42 },
        { type: 'resource_link', uri: 'file:///c', name: 'c', description: 'a file' },
      ],
      structuredContent: '{"temperature":21}',
    });
    const content = mapped.content as { type: string; text?: string; source?: { media_type: string } }[];
    expect(content[0]).toEqual({ type: 'text', text: 'hello' });
    expect(content[1]).toMatchObject({ type: 'image', source: { media_type: 'image/png' } });
    const texts = content.slice(2).map((b) => b.text ?? '');
    expect(texts[0]).toMatch(/Audio clip: audio\/wav, 6 bytes/);
    expect(texts[1]).toMatch(/Embedded resource <file:\/\/\/a.txt> \(text\/plain\)\]\ninside/);
    expect(texts[2]).toMatch(/binary resource <file:\/\/\/b.bin>.*42 bytes/);
    expect(texts[3]).toMatch(/Resource link: c <file:\/\/\/c> — a file/);
    expect(texts[4]).toMatch(/Structured result \(JSON\)\]\n\{"temperature":21\}/);
    expect(mapped.is_error).toBeUndefined();
  });

  it('marks errors and does not repeat structured content already given as text', () => {
    const mapped = toApiToolResult({
      ...base,
      status: 'error',
      isError: true,
      content: [{ type: 'text', text: '{ "a": 1 }' }],
      structuredContent: '{"a":1}',
    });
    expect(mapped.is_error).toBe(true);
    expect(mapped.content).toEqual([{ type: 'text', text: '{ "a": 1 }' }]);
  });
});

describe('an interrupted turn', () => {
  const interruptedNotice = () =>
    message('notice', [{ type: 'notice', level: 'warning', kind: 'interrupted', text: 'Interrupted' }]);
  const texts = (history: ChatMessage[]) =>
    buildMessages(history, new ToolNameTable([])).map((m) => [
      m.role,
      Array.isArray(m.content) ? m.content.map((c) => (c.type === 'text' ? c.text : c.type)).join('+') : '',
    ]);

  it('is retried as it stands: its question is the last user message', () => {
    const history = [message('user', [{ type: 'text', text: 'q1' }]), interruptedNotice()];
    expect(texts(history)).toEqual([['user', 'q1']]);
  });

  it('is not merged into the next message: its unanswered question is left out', () => {
    const history = [
      message('user', [{ type: 'text', text: 'q0' }]),
      message('assistant', [{ type: 'text', text: 'a0' }]),
      message('user', [{ type: 'text', text: 'q1' }]),
      interruptedNotice(),
      message('user', [{ type: 'text', text: 'q2' }]),
    ];
    expect(texts(history)).toEqual([
      ['user', 'q0'],
      ['assistant', 'a0'],
      ['user', 'q2'],
    ]);
  });

  it('that had started using tools keeps them, with interrupted results', () => {
    const history = [
      message('user', [{ type: 'text', text: 'q1' }]),
      message('assistant', [{ type: 'tool_use', id: 'tu', server: 's', tool: 't', inputJson: '{}' }]),
      interruptedNotice(),
      message('user', [{ type: 'text', text: 'q2' }]),
    ];
    expect(texts(history)).toEqual([
      ['user', 'q1'],
      ['assistant', 'tool_use'],
      ['user', 'tool_result+q2'],
    ]);
  });
});

describe('buildMessages: the end of a task, delivered in a later message', () => {
  const use = {
    type: 'tool_use' as const,
    id: 'toolu_task',
    server: 'research',
    tool: 'slow',
    inputJson: '{}',
  };
  const started: ToolResultChatBlock = {
    type: 'tool_result',
    toolUseId: 'toolu_task',
    server: 'research',
    tool: 'slow',
    status: 'ok',
    isError: false,
    taskId: 'task-7',
    content: [{ type: 'text', text: 'started task "task-7"' }],
  };
  const end = (status: 'completed' | 'lost', text: string) =>
    message('tool', [
      {
        type: 'task_result',
        toolUseId: 'toolu_task',
        server: 'research',
        tool: 'slow',
        taskId: 'task-7',
        status,
        isError: status !== 'completed',
        content: [{ type: 'text', text }],
      },
    ]);

  it('goes to Claude as user text naming the tool call and the task, then the result', () => {
    const history = [
      message('user', [{ type: 'text', text: 'research it' }]),
      message('assistant', [use]),
      message('tool', [started]),
      message('assistant', [{ type: 'text', text: 'It runs.' }]),
      end('completed', 'the findings'),
    ];
    const wire = buildMessages(history, new ToolNameTable([]));
    expect(wire.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    const last = wire.at(-1)?.content ?? [];
    expect(last[0]).toMatchObject({ type: 'text' });
    const head = last[0]?.type === 'text' ? last[0].text : '';
    expect(head).toContain('Task "task-7" of tool "slow" (server "research")');
    expect(head).toContain('started by your earlier tool call toolu_task, completed. Its result:');
    expect(last[1]).toMatchObject({ type: 'text', text: 'the findings' });
    // The earlier call keeps its own "started" result: the history stays valid.
    expect(wire[2]?.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_task' });
  });

  it('a task that was lost is said so; a tool call left open before it is closed first', () => {
    const history = [
      message('user', [{ type: 'text', text: 'research it' }]),
      message('assistant', [use]),
      end('lost', 'Task "task-7" of server "research" is no longer known to the server'),
    ];
    const wire = buildMessages(history, new ToolNameTable([]));
    const last = wire.at(-1)?.content ?? [];
    expect(last[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_task', is_error: true });
    const head = last[1]?.type === 'text' ? last[1].text : '';
    expect(head).toContain('was lost. What the host knows:');
    expect(last[2]).toMatchObject({ type: 'text', text: expect.stringContaining('no longer known') });
  });
});
