import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../../../../shared/model/chat.js';
import { applyDeltas, applyMessage } from '../../../../../../renderer/src/features/chat/chat-reducers.js';
import { emptyConversationView } from '../../../../../../renderer/src/features/chat/chat-state.js';

const message = (id: string, parentId?: string): ChatMessage => ({
  id,
  conversationId: 'c',
  turnId: 't',
  role: 'user',
  blocks: [{ type: 'text', text: id }],
  createdAt: 0,
  ...(parentId !== undefined ? { parentId } : {}),
});
const view = (messages: ChatMessage[]) => ({ details: { c: { ...emptyConversationView, messages } } });
const ids = (patch: ReturnType<typeof applyMessage>) => patch.details?.c?.messages.map((m) => m.id);

describe('chat reducers', () => {
  it('appends a message that follows the last one, and shows the new branch for an edit or a regenerated answer', () => {
    const messages = [message('a'), message('b', 'a'), message('c', 'b')];
    expect(ids(applyMessage(view(messages), 'c', message('d', 'c')))).toEqual(['a', 'b', 'c', 'd']);
    // An answer regenerated after "a": the old "b", "c" are on the other branch now.
    expect(ids(applyMessage(view(messages), 'c', message('b2', 'a')))).toEqual(['a', 'b2']);
    // The first message edited: a new version of the first message, and so a new start.
    const edited = { ...message('a2'), branch: { index: 2, count: 2, siblingIds: ['a', 'a2'] } };
    expect(ids(applyMessage(view(messages), 'c', edited))).toEqual(['a2']);
    // The first message of a new conversation.
    expect(ids(applyMessage(view([]), 'c', message('a')))).toEqual(['a']);
  });

  it('keeps streamed thinking apart from the answer text', () => {
    const state = view([]);
    const patch = applyDeltas(state, [
      { conversationId: 'c', turnId: 't', messageId: 'm', text: 'Let me see. ', kind: 'thinking' },
      { conversationId: 'c', turnId: 't', messageId: 'm', text: 'Hmm.', kind: 'thinking' },
      { conversationId: 'c', turnId: 't', messageId: 'm', text: 'The answer' },
    ]);
    expect(patch.details?.c?.streaming).toEqual({
      messageId: 'm',
      turnId: 't',
      text: 'The answer',
      thinking: 'Let me see. Hmm.',
    });
  });
});
