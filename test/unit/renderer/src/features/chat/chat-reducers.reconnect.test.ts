import { describe, expect, it } from 'vitest';
import type { ChatMessage, ConversationDetail } from '../../../../../../shared/model/chat.js';
import { reconcileLoaded } from '../../../../../../renderer/src/features/chat/chat-reducers.js';
import { emptyConversationView } from '../../../../../../renderer/src/features/chat/chat-state.js';
import type { ConversationView } from '../../../../../../renderer/src/features/chat/chat-state.js';

const conversation = {
  id: 'c',
  title: 't',
  createdAt: 0,
  updatedAt: 0,
  messageCount: 1,
  usage: {
    inputTokens: 0,
    outputTokens: 0,
    cacheCreationInputTokens: 0,
    cacheReadInputTokens: 0,
    costUsd: 0,
  },
};
const user: ChatMessage = {
  id: 'u1',
  conversationId: 'c',
  turnId: 't1',
  role: 'user',
  blocks: [{ type: 'text', text: 'hi' }],
  createdAt: 0,
};
const streamingView: ConversationView = {
  ...emptyConversationView,
  messages: [user],
  turn: { turnId: 't1', state: 'streaming', error: undefined, canRetry: false },
  streaming: { messageId: 'a1', turnId: 't1', text: 'Half an ans', thinking: '' },
};
const detail = (extra: Partial<ConversationDetail> = {}): ConversationDetail => ({
  conversation,
  messages: [user],
  ...extra,
});

describe('a conversation reloaded after the connection came back', () => {
  it('a turn the host no longer runs is dropped (no Stop); its uncommitted text stays, cut off', () => {
    expect(reconcileLoaded(streamingView, detail())).toEqual({
      messages: [user],
      turn: undefined,
      streaming: { messageId: 'a1', turnId: 't1', text: 'Half an ans', thinking: '', cutOff: true },
    });
  });

  it('text the host committed while the page was away replaces the streamed copy', () => {
    const answer: ChatMessage = {
      ...user,
      id: 'a1',
      role: 'assistant',
      blocks: [{ type: 'text', text: 'Half an answer.' }],
    };
    const next = reconcileLoaded(streamingView, detail({ messages: [user, answer] }));
    expect(next.streaming).toBeUndefined();
    expect(next.turn).toBeUndefined();
  });

  it('a turn still running on the host keeps streaming', () => {
    const next = reconcileLoaded(
      streamingView,
      detail({ activeTurn: { turnId: 't1', state: 'running-tools' } }),
    );
    expect(next.turn?.state).toBe('running-tools');
    expect(next).not.toHaveProperty('streaming');
  });

  it('a finished turn keeps its state (its Retry, its error)', () => {
    const failed: ConversationView = {
      ...emptyConversationView,
      turn: { turnId: 't0', state: 'error', error: { code: 'network', message: 'x' }, canRetry: true },
    };
    expect(reconcileLoaded(failed, detail()).turn).toBe(failed.turn);
  });
});
