import Database from 'better-sqlite3';
import { APIError } from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { isContextTooLong, refusedFeature } from '../../../../../electron/host/chat/api-rejections.js';
import { planRequest } from '../../../../../electron/host/chat/model-request.js';
import { MAX_SEARCHABLE_TOOLS, offerTools } from '../../../../../electron/host/chat/tool-offer.js';
import {
  branchInfo,
  childrenOf,
  newestLeaf,
  pathTo,
} from '../../../../../electron/host/persistence/conversation-branches.js';
import { ConversationStore } from '../../../../../electron/host/persistence/conversation-store.js';
import { migrate } from '../../../../../electron/host/persistence/database.js';
import { MIGRATIONS } from '../../../../../electron/host/persistence/migrations.js';
import { attachmentKind, attachmentProblem } from '../../../../../shared/model/attachments.js';
import type { ChatMessage } from '../../../../../shared/model/chat.js';
import type { ServerSnapshot } from '../../../../../shared/model/server.js';
import { DEFAULT_TOOL_SEARCH } from '../../../../../shared/model/settings.js';

const schema = { type: 'object', properties: { q: { type: 'string' } } };
function server(name: string, count: number): ServerSnapshot {
  return {
    name,
    transport: 'stdio',
    target: 'x',
    status: 'connected',
    capabilities: { tools: true, resources: false, prompts: false, logging: false },
    tools: Array.from({ length: count }, (_, i) => ({
      name: `t${String(i)}`,
      description: `Tool ${String(i)}`,
      inputSchema: schema,
    })),
    counts: { tools: count, resources: 0, prompts: 0 },
    stderrTail: [],
  };
}
const quirks = { noToolSearch: false, noThinking: false, noContextManagement: false };

describe('offerTools', () => {
  it('defers by count or by estimated tokens, keeps pinned and used tools loaded, and puts the search tool last', () => {
    const below = offerTools([server('a', 5)], { settings: DEFAULT_TOOL_SEARCH, pinned: [] });
    expect(below.search).toBe(false);
    expect(below.bytes.upFront).toBe(below.bytes.all);

    const byTokens = offerTools([server('a', 5)], {
      settings: { ...DEFAULT_TOOL_SEARCH, minTokens: 100 },
      pinned: [],
    });
    expect(byTokens.search).toBe(true);

    const offer = offerTools([server('a', 40)], {
      settings: DEFAULT_TOOL_SEARCH,
      pinned: [{ server: 'a', tool: 't3' }],
      used: new Set(['a\u0000t7']),
    });
    expect(offer.search).toBe(true);
    const loaded = offer.tools
      .filter((t) => !('defer_loading' in t) || t.defer_loading !== true)
      .map((t) => t.name);
    expect(loaded).toEqual(['a__t3', 'a__t7', 'tool_search_tool_bm25']);
    expect(offer.deferred.size).toBe(38);
    expect(offer.tools.at(-1)).toMatchObject({
      type: 'tool_search_tool_bm25_20251119',
      cache_control: { type: 'ephemeral' },
    });
    expect(offer.bytes.upFront).toBeLessThan(offer.bytes.all / 5);
  });

  it('leaves tools past the API catalog limit out, and says how many', () => {
    const offer = offerTools([server('a', 6000), server('b', 6000)], {
      settings: DEFAULT_TOOL_SEARCH,
      pinned: [],
    });
    expect(offer.offered).toBe(MAX_SEARCHABLE_TOOLS);
    expect(offer.leftOut).toBe(2000);
  });

  it('leaves out the servers and tools a conversation turned off', () => {
    const offer = offerTools([server('a', 3), server('b', 3)], {
      settings: DEFAULT_TOOL_SEARCH,
      pinned: [],
      conversation: { inactiveServers: ['b'], inactiveTools: [{ server: 'a', tool: 't1' }] },
    });
    expect(offer.tools.map((t) => t.name)).toEqual(['a__t0', 'a__t2']);
  });
});

describe('planRequest', () => {
  const message = (role: ChatMessage['role'], blocks: ChatMessage['blocks'], input = 0): ChatMessage => ({
    id: `m${String(Math.random())}`,
    conversationId: 'c',
    turnId: 't',
    role,
    blocks,
    createdAt: 0,
    ...(input > 0
      ? {
          usage: {
            inputTokens: input,
            outputTokens: 10,
            cacheCreationInputTokens: 0,
            cacheReadInputTokens: 0,
            costUsd: 0,
          },
        }
      : {}),
  });
  const base = {
    servers: [],
    model: 'claude-sonnet-4-6',
    toolSearch: DEFAULT_TOOL_SEARCH,
    pinned: [],
    quirks,
    contextWindow: 200_000,
  };

  it('uses context management only near the window, and always once the history holds a compaction', () => {
    const far = planRequest({
      ...base,
      history: [
        message('user', [{ type: 'text', text: 'hi' }]),
        message('assistant', [{ type: 'text', text: 'yo' }], 1000),
      ],
    });
    expect(far.beta).toBeUndefined();
    const near = planRequest({
      ...base,
      history: [
        message('user', [{ type: 'text', text: 'hi' }]),
        message('assistant', [{ type: 'text', text: 'yo' }], 140_000),
      ],
    });
    expect(near.beta?.betas).toEqual(['context-management-2025-06-27', 'compact-2026-01-12']);
    const compacted = planRequest({
      ...base,
      history: [
        message('assistant', [
          { type: 'compaction', summary: 's', raw: '{"type":"compaction","content":"s"}' },
        ]),
      ],
    });
    expect(compacted.beta).toBeDefined();
    expect(compacted.messages[0]?.content[0]).toEqual({ type: 'compaction', content: 's' });
    const compaction = {
      type: 'compaction' as const,
      summary: 's',
      raw: '{"type":"compaction","content":"s"}',
    };
    const refused = planRequest({
      ...base,
      quirks: { ...quirks, noContextManagement: true },
      history: [message('assistant', [compaction, { type: 'text', text: 'x' }])],
    });
    expect(refused.beta).toBeUndefined();
    expect(refused.messages[0]?.content).toEqual([
      { type: 'text', text: 'x', cache_control: { type: 'ephemeral' } },
    ]);
  });

  it('asks for adaptive thinking with effort, drops stored thinking when thinking is off', () => {
    const history = [
      message('assistant', [
        { type: 'thinking', thinking: 'hm', signature: 'sig' },
        { type: 'text', text: 'a' },
      ]),
    ];
    const on = planRequest({ ...base, history, conversation: { thinking: 'adaptive', effort: 'max' } });
    expect(on.thinking).toEqual({ type: 'adaptive' });
    expect(on.effort).toBe('max');
    expect(on.messages[0]?.content[0]).toEqual({ type: 'thinking', thinking: 'hm', signature: 'sig' });
    const off = planRequest({ ...base, history, conversation: { thinking: 'off' } });
    expect(off.thinking).toEqual({ type: 'disabled' });
    expect(off.messages[0]?.content.map((b) => b.type)).toEqual(['text']);
    const refused = planRequest({
      ...base,
      history,
      conversation: { thinking: 'adaptive' },
      quirks: { ...quirks, noThinking: true },
    });
    expect(refused.thinking).toBeUndefined();
    expect(refused.refused).toEqual(['thinking']);
  });
});

describe('API refusals', () => {
  const error = (status: number, message: string) =>
    APIError.generate(
      status,
      { type: 'error', error: { type: 'invalid_request_error', message } },
      message,
      new Headers(),
    );

  it('pins a 400 on the feature it names, only when the request used it', () => {
    const all = { toolSearch: true, thinking: true, contextManagement: true };
    expect(
      refusedFeature(error(400, "tools.3: Input tag 'tool_search_tool_bm25_20251119' does not match"), all),
    ).toBe('tool_search');
    expect(refusedFeature(error(400, 'thinking.type: adaptive is not supported'), all)).toBe('thinking');
    expect(refusedFeature(error(400, 'context_management: Extra inputs are not permitted'), all)).toBe(
      'context_management',
    );
    expect(
      refusedFeature(error(400, 'thinking.type: adaptive is not supported'), { ...all, thinking: false }),
    ).toBeUndefined();
    expect(refusedFeature(error(500, 'tool_search broke'), all)).toBeUndefined();
    expect(isContextTooLong(error(400, 'prompt is too long: 210000 tokens > 200000 maximum'))).toBe(true);
    expect(isContextTooLong(error(400, 'messages: text content blocks must be non-empty'))).toBe(false);
  });
});

describe('branches', () => {
  const rows = [
    { id: 'u1', parent: null, seq: 1 },
    { id: 'a1', parent: 'u1', seq: 2 },
    { id: 'u2', parent: 'a1', seq: 3 },
    { id: 'a2', parent: 'u2', seq: 4 },
    { id: 'u2b', parent: 'a1', seq: 5 },
    { id: 'a2b', parent: 'u2b', seq: 6 },
  ];
  it('follows the head to the root, finds the newest leaf, and numbers siblings oldest first', () => {
    expect(pathTo(rows, 'a2')).toEqual(['u1', 'a1', 'u2', 'a2']);
    expect(pathTo(rows, null)).toEqual(['u1', 'a1', 'u2b', 'a2b']);
    const children = childrenOf(rows);
    expect(newestLeaf('u2', children)).toBe('a2');
    expect(newestLeaf('a1', children)).toBe('a2b');
    expect(branchInfo('u2b', 'a1', children)).toEqual({ index: 2, count: 2, siblingIds: ['u2', 'u2b'] });
    expect(branchInfo('a1', 'u1', children)).toBeUndefined();
  });

  it('migration 5 turns an existing history into one straight branch', () => {
    const db = new Database(':memory:');
    db.exec(
      'CREATE TABLE migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)',
    );
    for (const m of MIGRATIONS.filter((m) => m.version < 5)) {
      db.exec(m.sql);
      db.prepare('INSERT INTO migrations VALUES (?, ?, ?)').run(m.version, m.name, 0);
    }
    db.prepare(
      "INSERT INTO conversations (id, title, created_at, updated_at) VALUES ('c', 'old', 0, 0)",
    ).run();
    const insert = db.prepare(
      "INSERT INTO messages (id, conversation_id, turn_id, role, blocks, created_at, search_text) VALUES (?, 'c', 't', ?, ?, 0, '')",
    );
    for (const [id, role] of [
      ['m1', 'user'],
      ['m2', 'assistant'],
      ['m3', 'user'],
    ] as const) {
      insert.run(id, role, JSON.stringify([{ type: 'text', text: id }]));
    }
    migrate(db);
    const store = new ConversationStore(db);
    expect(store.messages('c').map((m) => [m.id, m.parentId])).toEqual([
      ['m1', undefined],
      ['m2', 'm1'],
      ['m3', 'm2'],
    ]);
    const next = store.addMessage('c', {
      turnId: 't2',
      role: 'assistant',
      blocks: [{ type: 'text', text: 'new' }],
    });
    expect(next.parentId).toBe('m3');
    db.close();
  });
});

describe('attachments', () => {
  it('knows images, PDFs and text by type or name, and refuses the rest and what is too big, in one line', () => {
    expect(attachmentKind('a.png', 'image/png')).toBe('image');
    expect(attachmentKind('a.pdf', '')).toBe('pdf');
    expect(attachmentKind('main.rs', '')).toBe('text');
    expect(attachmentKind('notes', 'text/plain')).toBe('text');
    expect(attachmentKind('setup.exe', 'application/x-msdownload')).toBeUndefined();
    expect(attachmentProblem({ name: 'setup.exe', type: '', size: 10 })).toBe(
      'setup.exe: this kind of file cannot be sent to Claude (images, PDFs and text files only).',
    );
    expect(attachmentProblem({ name: 'big.pdf', type: 'application/pdf', size: 11 * 1024 * 1024 })).toBe(
      'big.pdf is 11.0 MB; a PDF may be at most 10.0 MB.',
    );
    expect(attachmentProblem({ name: 'e.txt', type: 'text/plain', size: 0 })).toBe('e.txt is empty.');
    expect(
      attachmentProblem({ name: 'c.png', type: 'image/png', size: 4 * 1024 * 1024 }, 9 * 1024 * 1024),
    ).toMatch(/at most 12\.0 MB together/);
    expect(attachmentProblem({ name: 'ok.md', type: 'text/markdown', size: 100 })).toBeUndefined();
  });
});
