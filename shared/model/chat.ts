import { z } from 'zod';
import { ServerNameSchema } from './config.js';
import { ResourceUriSchema } from './features.js';
import { ContentBlockSchema } from './server.js';
import { RuleRefSchema } from './consent-rules.js';
import { ConversationSettingsSchema } from './conversation-settings.js';
import { DocumentAttachmentSchema, TextFileAttachmentSchema } from './attachments.js';
import { ChatBlockSchema } from './chat-blocks.js';

export * from './chat-blocks.js';

/**
 * Conversations with Claude as the renderer sees them. The host stores every
 * completed message in SQLite and pushes it with `chatMessage`; text that is
 * still streaming arrives as `chatDelta` events for a message id that is
 * committed later (or never, if the turn is stopped or the host dies).
 */

export const ConversationIdSchema = z.string().min(1).max(64);

export const UsageSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cacheCreationInputTokens: z.number(),
  cacheReadInputTokens: z.number(),
  /** Estimated cost in US dollars from a per-model-family price table; an estimate, not a bill. */
  costUsd: z.number(),
  /** Of the output tokens, those spent thinking (when the API reports it). */
  thinkingTokens: z.number().optional(),
  /**
   * One response only (not summed): the size of the context Claude answered
   * from, for the context meter. Differs from input + output when the API
   * compacted the conversation in this response.
   */
  contextTokens: z.number().optional(),
});
export type Usage = z.infer<typeof UsageSchema>;

export const ConversationSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  messageCount: z.number(),
  usage: UsageSchema,
  /** A short excerpt around the match, when listed with a search query. */
  snippet: z.string().optional(),
  /** Model, system prompt, thinking and active servers/tools of this conversation. */
  settings: ConversationSettingsSchema.optional(),
});
export type ConversationSummary = z.infer<typeof ConversationSummarySchema>;

/** "tool" messages hold the tool results of the assistant message before them. */
export const ChatRoleSchema = z.enum(['user', 'assistant', 'tool', 'notice']);
export type ChatRole = z.infer<typeof ChatRoleSchema>;

export const ChatMessageSchema = z.object({
  id: z.string(),
  conversationId: z.string(),
  /** The turn (one sendMessage/retryTurn) this message belongs to. */
  turnId: z.string(),
  role: ChatRoleSchema,
  blocks: z.array(ChatBlockSchema),
  createdAt: z.number(),
  /** Assistant messages: why the model stopped ("end_turn", "tool_use", "max_tokens", …). */
  stopReason: z.string().optional(),
  /** Assistant messages: the tokens of the request that produced it. */
  usage: UsageSchema.optional(),
  model: z.string().optional(),
  /** The message before this one on its branch (absent for the first). */
  parentId: z.string().optional(),
  /**
   * Set when this message has other versions (an edited message, a
   * regenerated answer): its place among them, 1-based, and how many there
   * are. `switchBranch` shows another one.
   */
  branch: z.object({ index: z.number(), count: z.number(), siblingIds: z.array(z.string()) }).optional(),
});
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

export const TurnStateSchema = z.enum([
  /** The model is answering. */
  'streaming',
  /** The API was overloaded or rate-limited; the SDK retries with backoff. */
  'retrying',
  'waiting-consent',
  'running-tools',
  'done',
  'stopped',
  'error',
]);
export type TurnState = z.infer<typeof TurnStateSchema>;

/** Error kinds of a turn; "no_api_key" is the UI's cue to show the setup prompt. */
export const ChatErrorCodeSchema = z.enum([
  'no_api_key',
  'auth',
  'rate_limited',
  'overloaded',
  'network',
  'api',
  'iteration_limit',
  /** The conversation is longer than the model's context window, even after clearing and compacting. */
  'context_length',
  'internal',
]);
export type ChatErrorCode = z.infer<typeof ChatErrorCodeSchema>;

export const TurnStateEventSchema = z.object({
  conversationId: z.string(),
  turnId: z.string(),
  state: TurnStateSchema,
  /** One line, present when state is "error" (and for "retrying": what happened). */
  error: z.object({ code: ChatErrorCodeSchema, message: z.string() }).optional(),
  /** Whether retryTurn makes sense now (after an error or a stop). */
  canRetry: z.boolean(),
});
export type TurnStateEvent = z.infer<typeof TurnStateEventSchema>;

export const ChatDeltaEventSchema = z.object({
  conversationId: z.string(),
  turnId: z.string(),
  /** The assistant message being streamed; `chatMessage` later brings the completed one with this id. */
  messageId: z.string(),
  /** Text to append (several stream deltas batched together). */
  text: z.string(),
  /** "thinking": the text is Claude's thinking, streamed before its answer. */
  kind: z.enum(['text', 'thinking']).optional(),
});
export type ChatDeltaEvent = z.infer<typeof ChatDeltaEventSchema>;

export const ChatMessageEventSchema = z.object({
  conversationId: z.string(),
  message: ChatMessageSchema,
});
export type ChatMessageEvent = z.infer<typeof ChatMessageEventSchema>;

export const ToolCallStatusSchema = z.enum([
  'waiting-consent',
  'running',
  'done',
  'error',
  'denied',
  'cancelled',
]);
export type ToolCallStatus = z.infer<typeof ToolCallStatusSchema>;

export const ToolCallUpdateEventSchema = z.object({
  conversationId: z.string(),
  turnId: z.string(),
  toolUseId: z.string(),
  server: z.string(),
  tool: z.string(),
  status: ToolCallStatusSchema,
  /** From the server's progress notifications while running. */
  progress: z
    .object({ progress: z.number(), total: z.number().optional(), message: z.string().optional() })
    .optional(),
  durationMs: z.number().optional(),
  /** One line describing the result (done/error/denied/cancelled). */
  summary: z.string().optional(),
  /** How the call was allowed: asked the user, or a rule. */
  allowedBy: z.enum(['user', 'policy']).optional(),
  /** The rule that allowed it without asking (with `allowedBy: "policy"`). */
  rule: RuleRefSchema.optional(),
});
export type ToolCallUpdateEvent = z.infer<typeof ToolCallUpdateEventSchema>;

export const UsageEventSchema = z.object({
  conversationId: z.string(),
  turnId: z.string(),
  /** Tokens and cost of this turn so far (all its model requests). */
  turn: UsageSchema,
  /** Totals of the whole conversation. */
  conversation: UsageSchema,
});
export type UsageEvent = z.infer<typeof UsageEventSchema>;

export const ConversationDetailSchema = z.object({
  conversation: ConversationSummarySchema,
  messages: z.array(ChatMessageSchema),
  /** The turn in progress, if any (to restore the UI after a reload). */
  activeTurn: z.object({ turnId: z.string(), state: TurnStateSchema }).optional(),
});
export type ConversationDetail = z.infer<typeof ConversationDetailSchema>;

const ModelImageType = z.enum(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

export const ImageAttachmentSchema = z
  .object({
    type: z.literal('image'),
    mimeType: ModelImageType,
    /** Base64 data, at most ~5 MB decoded. */
    data: z.string().max(7_000_000),
    /** The file's name, when it came from a file. */
    name: z.string().max(256).optional(),
  })
  .strict();

/** A resource to read from this server when the message is sent (only a reference travels). */
export const ResourceAttachmentSchema = z
  .object({
    type: z.literal('resource'),
    server: ServerNameSchema,
    uri: ResourceUriSchema,
  })
  .strict();

/** Content of an inserted prompt message; the renderer names audio and links as text. */
const PromptContentSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string().max(1_000_000) }).strict(),
  z.object({ type: z.literal('image'), mimeType: ModelImageType, data: z.string().max(7_000_000) }).strict(),
  z
    .object({
      type: z.literal('resource'),
      uri: z.string().max(4096),
      mimeType: z.string().max(256).optional(),
      text: z.string().max(1_000_000).optional(),
      blobBytes: z.number().optional(),
    })
    .strict(),
]);
export type PromptContent = z.infer<typeof PromptContentSchema>;

/** One message of a prompt the person inserted with "/", keeping its role. */
export const PromptMessageAttachmentSchema = z
  .object({
    type: z.literal('prompt-message'),
    server: ServerNameSchema,
    prompt: z.string().min(1).max(256),
    role: z.enum(['user', 'assistant']),
    content: PromptContentSchema,
  })
  .strict();

export const AttachmentSchema = z.discriminatedUnion('type', [
  ImageAttachmentSchema,
  ResourceAttachmentSchema,
  PromptMessageAttachmentSchema,
  DocumentAttachmentSchema,
  TextFileAttachmentSchema,
]);
export type Attachment = z.infer<typeof AttachmentSchema>;

/**
 * Characters a message may carry in all (its text plus attached images and
 * prompt texts): at most 30 MB once encoded, so a valid message always fits
 * in one frame of the headless shell (shared/ipc/wire.ts).
 */
export const MAX_MESSAGE_CHARS = 10_000_000;

export const SendMessageSchema = z
  .object({
    conversationId: ConversationIdSchema,
    text: z.string().max(1_000_000),
    attachments: z.array(AttachmentSchema).max(50).optional(),
  })
  .strict()
  .superRefine((message, ctx) => {
    const size = messageChars(message.text, message.attachments ?? []);
    if (size > MAX_MESSAGE_CHARS) {
      ctx.addIssue({
        code: 'custom',
        path: ['attachments'],
        message: `The message and its attachments are too large (${(size / 1e6).toFixed(1)} MB; at most ${String(MAX_MESSAGE_CHARS / 1e6)} MB)`,
      });
    }
  });

function messageChars(text: string, attachments: readonly Attachment[]): number {
  let size = text.length;
  for (const a of attachments) {
    if (a.type === 'image') size += a.data.length;
    else if (a.type === 'prompt-message') {
      const c = a.content;
      size += c.type === 'text' ? c.text.length : c.type === 'image' ? c.data.length : (c.text?.length ?? 0);
    }
  }
  return size;
}

/** Edit an earlier user message and send it again; the old version stays on its own branch. */
export const EditMessageSchema = z
  .object({
    conversationId: ConversationIdSchema,
    messageId: z.string().min(1).max(64),
    text: z.string().max(1_000_000),
  })
  .strict();

export const TurnStartedSchema = z.object({
  turnId: z.string(),
  /** The committed user message (absent for retryTurn). */
  userMessage: ChatMessageSchema.optional(),
});
export type TurnStarted = z.infer<typeof TurnStartedSchema>;

export const AuditDecisionSchema = z.enum([
  'allow_once',
  'always_allow',
  'policy_allow',
  'deny',
  'withdrawn',
  /** The person chose "Allow for this conversation". */
  'allow_conversation',
  /** The person chose "Trust this server". */
  'trust_server',
  /** The person chose to run the server's read-only tools without asking. */
  'allow_read_only',
  /** The person called the tool themselves (the Servers view): no consent was needed. */
  'user_call',
  /** The person accepted a tool's changed or new definition (its digest is the entry's digest). */
  'accept_change',
  /** Network of a sandboxed server (the entry's `tool` is "host:port"): the person allowed it once. */
  'network_allow_once',
  /** … allowed it always (written into the server's `sandbox.allowHosts`). */
  'network_always_allow',
  /** … denied it. */
  'network_deny',
  /** … gave no answer in time, or no one could be asked (the CLI): denied. */
  'network_unanswered',
]);
export type AuditDecision = z.infer<typeof AuditDecisionSchema>;

export const AuditEntrySchema = z.object({
  id: z.number(),
  time: z.number(),
  server: z.string(),
  tool: z.string(),
  /** SHA-256 (hex) of the canonical JSON of the arguments. */
  argumentsDigest: z.string(),
  decision: AuditDecisionSchema,
  conversationId: z.string().optional(),
  /** The identity of the server as it was at the call (absent in entries of older versions). */
  identityHash: z.string().optional(),
  /** For `policy_allow`: the rule that allowed the call. */
  rule: RuleRefSchema.optional(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

export const FullToolResultSchema = z.object({
  toolUseId: z.string(),
  content: z.array(ContentBlockSchema),
  structuredContent: z.string().optional(),
});
export type FullToolResult = z.infer<typeof FullToolResultSchema>;
