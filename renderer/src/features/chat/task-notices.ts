import type { ChatMessage } from '../../../../shared/model/chat.js';
import type { ChatData } from './chat-state.js';

/**
 * A message that brings a task's end into a conversation the person is not
 * looking at (another conversation, another view) adds a notice; nothing
 * otherwise. A message already noticed is not noticed twice.
 */
export function taskNotice(
  state: Pick<ChatData, 'selectedId' | 'view' | 'taskNotices'>,
  conversationId: string,
  message: ChatMessage,
): Partial<Pick<ChatData, 'taskNotices'>> {
  const block = message.blocks.find((b) => b.type === 'task_result');
  if (!block) return {};
  if (state.view === 'chat' && state.selectedId === conversationId) return {};
  if (state.taskNotices.some((n) => n.messageId === message.id)) return {};
  return { taskNotices: [...state.taskNotices, { conversationId, messageId: message.id, tool: block.tool }] };
}
