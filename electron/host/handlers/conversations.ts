import { writeConversationExport } from '../chat/conversation-export.js';
import { DEFAULT_TITLE } from '../chat/chat-service.js';
import type { ChatService } from '../chat/chat-service.js';
import { HostError } from '../errors.js';
import type { DomainHandlers, HostEventSink } from '../ipc/handlers.js';
import type { Persistence } from '../persistence/persistence.js';

/**
 * The conversation requests: the stored conversations (list, create, rename,
 * delete, settings, branches, export) and their turns with Claude, which the
 * ChatService runs.
 */
export function conversationHandlers(
  persistence: Persistence,
  chat: ChatService,
  emit: HostEventSink,
): DomainHandlers<'conversations'> {
  const stores = () => persistence.open();
  return {
    listConversations: async ({ query }) => (await stores()).conversations.list(query),
    createConversation: async ({ title }) => {
      const summary = (await stores()).conversations.create(
        title !== undefined && title !== '' ? title : DEFAULT_TITLE,
      );
      emit('conversationChanged', summary);
      return summary;
    },
    renameConversation: async ({ id, title }) => {
      const summary = (await stores()).conversations.rename(id, title);
      emit('conversationChanged', summary);
      return summary;
    },
    deleteConversation: async ({ id }) => {
      const { conversations, rules } = await stores();
      await chat.stop(id);
      const hadRules = rules.list().rules.some((r) => r.conversationId === id);
      conversations.delete(id);
      emit('conversationDeleted', { id });
      // Its "allow for this conversation" rules went with it (ON DELETE CASCADE).
      if (hadRules) emit('policiesChanged', rules.list());
      return null;
    },
    getConversation: async ({ id }) => {
      const { conversations } = await stores();
      const activeTurn = chat.activeTurn(id);
      return {
        conversation: conversations.get(id),
        messages: conversations.messages(id),
        ...(activeTurn ? { activeTurn } : {}),
      };
    },
    sendMessage: ({ conversationId, text, attachments }) =>
      chat.send(conversationId, text, attachments ?? []),
    stopTurn: async ({ conversationId }) => {
      await chat.stop(conversationId);
      return null;
    },
    retryTurn: ({ conversationId }) => chat.retry(conversationId),
    getToolResult: async ({ toolUseId }) => (await stores()).conversations.fullToolResult(toolUseId),
    editMessage: ({ conversationId, messageId, text }) => chat.edit(conversationId, messageId, text),
    regenerateAnswer: ({ conversationId }) => chat.regenerate(conversationId),
    switchBranch: async ({ conversationId, messageId }) => {
      const { conversations } = await stores();
      if (chat.activeTurn(conversationId)) {
        throw new HostError('conflict', 'Claude is still answering in this conversation; stop it first');
      }
      conversations.switchBranch(conversationId, messageId);
      return {
        conversation: conversations.get(conversationId),
        messages: conversations.messages(conversationId),
      };
    },
    setConversationSettings: async ({ id, settings }) => {
      const summary = (await stores()).conversations.setSettings(id, settings);
      emit('conversationChanged', summary);
      return summary;
    },
    exportConversation: async ({ id, format, folder }) => {
      const { conversations } = await stores();
      return writeConversationExport(
        { conversation: conversations.get(id), messages: conversations.messages(id) },
        format,
        folder,
      );
    },
  };
}
