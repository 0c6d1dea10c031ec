import { describe, expect, it, vi } from 'vitest';
import type { ChatMessage, ConversationSummary, Usage } from '../../../../../../shared/model/chat.js';
import { createChatStore } from '../../../../../../renderer/src/features/chat/chat-store.js';
import { DEFAULT_REGISTRY_URL, DEFAULT_TOOL_SEARCH } from '../../../../../../shared/model/settings.js';
import { fakeConnection, fakeHost, flush, ok } from '../../../../../helpers/renderer/fake-host.js';

const zero: Usage = {
  inputTokens: 0,
  outputTokens: 0,
  cacheCreationInputTokens: 0,
  cacheReadInputTokens: 0,
  costUsd: 0,
};
const summary = (id: string, updatedAt: number): ConversationSummary => ({
  id,
  title: `Chat ${id}`,
  createdAt: 1,
  updatedAt,
  messageCount: 0,
  usage: zero,
});
const message = (id: string, role: ChatMessage['role'], text: string): ChatMessage => ({
  id,
  conversationId: 'c1',
  turnId: 't1',
  role,
  blocks: [{ type: 'text', text }],
  createdAt: 1,
});
const connected = fakeConnection('connected').connection;

function setup() {
  const { host, emit } = fakeHost({
    getSettings: vi.fn(() =>
      ok({
        baseUrl: 'http://fake',
        model: 'm',
        maxIterations: 25,
        toolSearch: DEFAULT_TOOL_SEARCH,
        pinnedTools: [],
        registryUrl: DEFAULT_REGISTRY_URL,
        apiKey: { set: false, encrypted: true },
      }),
    ),
    listConversations: vi.fn((params: { query?: string }) =>
      ok(params.query === undefined ? [summary('c1', 20), summary('c2', 10)] : [summary('c2', 10)]),
    ),
    getConversation: vi.fn(() =>
      ok({ conversation: summary('c1', 20), messages: [message('m1', 'user', 'hi')] }),
    ),
    sendMessage: vi.fn(() => ok({ turnId: 't2', userMessage: message('m2', 'user', 'again') })),
    createConversation: vi.fn(() => ok(summary('c3', 30))),
  });
  const frames: (() => void)[] = [];
  const { store } = createChatStore(host, connected, (callback) => frames.push(callback));
  const runFrame = () => {
    for (const frame of frames.splice(0)) frame();
  };
  return { host, emit, store, runFrame };
}

describe('createChatStore', () => {
  it('loads settings and conversations, and opens the newest', async () => {
    const { store, host } = setup();
    await flush();
    const state = store.getState();
    expect(state.settings?.apiKey.set).toBe(false);
    expect(state.conversations.map((c) => c.id)).toEqual(['c1', 'c2']);
    expect(state.selectedId).toBe('c1');
    await flush();
    expect(host.getConversation).toHaveBeenCalledWith({ id: 'c1' });
    expect(store.getState().details.c1?.messages.map((m) => m.id)).toEqual(['m1']);
  });

  it('applies a burst of deltas in one frame, then the committed message replaces the streamed text', async () => {
    const { store, emit, runFrame } = setup();
    await flush();
    await flush();
    const renders = vi.fn();
    store.subscribe(renders);
    for (const text of ['Hel', 'lo', ' wor', 'ld']) {
      emit('chatDelta', { conversationId: 'c1', turnId: 't1', messageId: 'a1', text });
    }
    expect(renders).not.toHaveBeenCalled();
    expect(store.getState().details.c1?.streaming).toBeUndefined();
    runFrame();
    expect(renders).toHaveBeenCalledTimes(1);
    expect(store.getState().details.c1?.streaming?.text).toBe('Hello world');

    emit('chatDelta', { conversationId: 'c1', turnId: 't1', messageId: 'a1', text: '!' });
    emit('chatMessage', { conversationId: 'c1', message: message('a1', 'assistant', 'Hello world!') });
    const view = store.getState().details.c1;
    expect(view?.streaming).toBeUndefined();
    expect(view?.messages.map((m) => m.id)).toEqual(['m1', 'a1']);
  });

  it('a stopped turn drops its partial answer', async () => {
    const { store, emit, runFrame } = setup();
    await flush();
    await flush();
    emit('chatDelta', { conversationId: 'c1', turnId: 't1', messageId: 'a1', text: 'partial' });
    runFrame();
    emit('turnState', { conversationId: 'c1', turnId: 't1', state: 'stopped', canRetry: true });
    expect(store.getState().details.c1?.streaming).toBeUndefined();
    expect(store.getState().details.c1?.turn).toMatchObject({ state: 'stopped', canRetry: true });
  });

  it('without a key, sending is refused before anything is created, and the conversation says why', async () => {
    const { store, host } = setup();
    await flush();
    await flush();
    const sent = await store.getState().actions.send('hello');
    expect(sent).toMatchObject({ ok: false, error: { code: 'no_api_key' } });
    expect(host.sendMessage).not.toHaveBeenCalled();
    expect(host.createConversation).not.toHaveBeenCalled();
    expect(store.getState().details.c1?.requestError?.code).toBe('no_api_key');
  });

  it('sending adds the committed user message once, even when its event also arrives', async () => {
    const { store, emit, host } = setup();
    await flush();
    await flush();
    emit('settingsChanged', {
      baseUrl: 'http://fake',
      model: 'm',
      maxIterations: 25,
      toolSearch: DEFAULT_TOOL_SEARCH,
      pinnedTools: [],
      registryUrl: DEFAULT_REGISTRY_URL,
      apiKey: { set: true, hint: 'sk-…abcd', encrypted: true },
    });
    const sent = await store.getState().actions.send('again');
    expect(sent.ok).toBe(true);
    expect(host.sendMessage).toHaveBeenCalledWith({ conversationId: 'c1', text: 'again' });
    emit('chatMessage', { conversationId: 'c1', message: message('m2', 'user', 'again') });
    const view = store.getState().details.c1;
    expect(view?.messages.map((m) => m.id)).toEqual(['m1', 'm2']);
    expect(view?.turn).toMatchObject({ turnId: 't2', state: 'streaming' });
  });

  it('keeps the list newest first, and deleting the open conversation opens its neighbour', async () => {
    const { store, emit } = setup();
    await flush();
    emit('conversationChanged', summary('c2', 30));
    expect(store.getState().conversations.map((c) => c.id)).toEqual(['c2', 'c1']);
    emit('conversationDeleted', { id: 'c1' });
    expect(store.getState().selectedId).toBe('c2');
    expect(store.getState().details.c1).toBeUndefined();
  });

  it('search shows the host matches, and clearing it shows the whole list again', async () => {
    const { store, host } = setup();
    await flush();
    store.getState().actions.search('needle');
    await flush();
    expect(host.listConversations).toHaveBeenLastCalledWith({ query: 'needle' });
    expect(store.getState().searchResults?.map((c) => c.id)).toEqual(['c2']);
    store.getState().actions.search('');
    expect(store.getState().searchResults).toBeUndefined();
  });
});
