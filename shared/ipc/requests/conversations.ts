import { z } from 'zod';
import {
  ConversationDetailSchema,
  ConversationIdSchema,
  ConversationSummarySchema,
  EditMessageSchema,
  FullToolResultSchema,
  SendMessageSchema,
  TurnStartedSchema,
} from '../../model/chat.js';
import { ConversationSettingsSchema } from '../../model/conversation-settings.js';
import { byConversation, inConversation } from './common.js';

// Conversations and turns with Claude.
export const conversationsRequests = {
  /** Newest first; with a query, only conversations whose title or messages match (full-text). */
  listConversations: {
    params: z.object({ query: z.string().max(500).optional() }).strict(),
    result: z.array(ConversationSummarySchema),
  },
  createConversation: {
    params: z.object({ title: z.string().trim().max(200).optional() }).strict(),
    result: ConversationSummarySchema,
  },
  renameConversation: {
    params: z.object({ id: ConversationIdSchema, title: z.string().trim().min(1).max(200) }).strict(),
    result: ConversationSummarySchema,
  },
  /** Stops its turn, if any, then deletes the conversation and its messages. */
  deleteConversation: { params: byConversation, result: z.null() },
  getConversation: { params: byConversation, result: ConversationDetailSchema },
  /**
   * Commits the user message and starts a turn; the answer streams as events
   * (turnState, chatDelta, chatMessage, toolCallUpdate, usage). Fails with
   * code "no_api_key" when no key is set, "conflict" when a turn is running.
   */
  sendMessage: { params: SendMessageSchema, result: TurnStartedSchema },
  /** Aborts the stream and cancels in-flight tool calls; the partial answer is dropped. */
  stopTurn: { params: inConversation, result: z.null() },
  /** Runs the model again from the stored history (after an error or a stop). */
  retryTurn: { params: inConversation, result: TurnStartedSchema },
  /** The whole result of a tool call whose chat block is truncated. */
  getToolResult: {
    params: z.object({ toolUseId: z.string().min(1).max(256) }).strict(),
    result: FullToolResultSchema,
  },
  /** Sends an earlier user message again with new text; the old version stays on its own branch. */
  editMessage: { params: EditMessageSchema, result: TurnStartedSchema },
  /** Answers the last user message again; the old answer stays on its own branch. */
  regenerateAnswer: { params: inConversation, result: TurnStartedSchema },
  /** Shows the branch a message is on (at its newest message). */
  switchBranch: {
    params: z.object({ conversationId: ConversationIdSchema, messageId: z.string().min(1).max(64) }).strict(),
    result: ConversationDetailSchema,
  },
  /** Model, system prompt, thinking and active servers/tools of one conversation (replaces them). */
  setConversationSettings: {
    params: z.object({ id: ConversationIdSchema, settings: ConversationSettingsSchema }).strict(),
    result: ConversationSummarySchema,
  },
  /**
   * Writes the conversation (the branch shown) as Markdown or JSON into a
   * folder on the host's machine (default: the Downloads folder, else home).
   */
  exportConversation: {
    params: z
      .object({
        id: ConversationIdSchema,
        format: z.enum(['markdown', 'json']),
        folder: z.string().trim().max(4096).optional(),
      })
      .strict(),
    result: z.object({ path: z.string() }),
  },
} as const;
