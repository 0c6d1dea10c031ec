import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../../../../shared/model/chat.js';
import { taskNotice } from '../../../../../../renderer/src/features/chat/task-notices.js';

const delivered = (id: string, conversationId: string): ChatMessage => ({
  id,
  conversationId,
  turnId: 't9',
  role: 'tool',
  blocks: [
    {
      type: 'task_result',
      toolUseId: 'toolu_1',
      server: 'research',
      tool: 'simulate-research-query',
      taskId: 'task-1',
      status: 'completed',
      isError: false,
      content: [{ type: 'text', text: '# Research Report' }],
    },
  ],
  createdAt: 1,
});

describe('taskNotice', () => {
  it('notices a task result for a conversation the person is not looking at, once', () => {
    const state = { view: 'chat' as const, selectedId: 'c2', taskNotices: [] };
    const first = taskNotice(state, 'c1', delivered('m1', 'c1'));
    expect(first.taskNotices).toEqual([
      { conversationId: 'c1', messageId: 'm1', tool: 'simulate-research-query' },
    ]);
    expect(
      taskNotice({ ...state, taskNotices: first.taskNotices ?? [] }, 'c1', delivered('m1', 'c1')),
    ).toEqual({});
  });

  it('notices it in another view even for the selected conversation', () => {
    const state = { view: 'tasks' as const, selectedId: 'c1', taskNotices: [] };
    expect(taskNotice(state, 'c1', delivered('m1', 'c1')).taskNotices).toHaveLength(1);
  });

  it('says nothing when the person is looking at that conversation, or for other messages', () => {
    const state = { view: 'chat' as const, selectedId: 'c1', taskNotices: [] };
    expect(taskNotice(state, 'c1', delivered('m1', 'c1'))).toEqual({});
    const text: ChatMessage = {
      ...delivered('m2', 'c2'),
      role: 'assistant',
      blocks: [{ type: 'text', text: 'hi' }],
    };
    expect(taskNotice(state, 'c2', text)).toEqual({});
  });
});
