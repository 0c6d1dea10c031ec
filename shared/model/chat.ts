import { z } from 'zod';
import { ServerNameSchema } from './config.js';
import { ResourceUriSchema } from './features.js';
import { ContentBlockSchema } from './server.js';

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
});
export type ConversationSummary = z.infer<typeof ConversationSummarySchema>;

const TextBlock = z.object({ type: z.literal('text'), text: z.string() });
const ImageBlock = z.object({ type: z.literal('image'), mimeType: z.string(), data: z.string() });
const ToolUseBlock = z.object({
  type: z.literal('tool_use'),
  /** The model's tool_use id; the matching tool_result carries it. */
  id: z.string(),
  server: z.string(),
  tool: z.string(),
  /** The arguments the model gave, as JSON text. */
  inputJson: z.string(),
});
const ToolResultBlock = z.object({
  type: z.literal('tool_result'),
  toolUseId: z.string(),
  server: z.string(),
  tool: z.string(),
  /** "denied": the user declined; "cancelled": stopped or interrupted. */
  status: z.enum(['ok', 'error', 'denied', 'cancelled']),
  isError: z.boolean(),
  /** The result as the server gave it; text may be cut when `truncated` is set. */
  content: z.array(ContentBlockSchema),
  structuredContent: z.string().optional(),
  durationMs: z.number().optional(),
  /** Set when the content shown here is cut; `getToolResult` returns all of it. */
  truncated: z.object({ totalChars: z.number() }).optional(),
});
/** Context for the model: text, or an image it accepts. */
const ContextPart = z.discriminatedUnion('type', [TextBlock, ImageBlock]);
export type ContextPart = z.infer<typeof ContextPart>;
/**
 * A resource the person attached to their message, as it was read when the
 * message was sent. Stored with the message so the history shows it and
 * later turns send the same context again.
 */
const ResourceContextBlock = z.object({
  type: z.literal('resource_context'),
  server: z.string(),
  uri: z.string(),
  content: z.array(ContextPart),
});
/**
 * One message of an MCP prompt (prompts/get) inserted by the person, with
 * the role the prompt gave it: an "assistant" one reaches Claude as an
 * assistant message, so the prompt's roles stay as the server wrote them.
 */
const PromptMessageBlock = z.object({
  type: z.literal('prompt_message'),
  server: z.string(),
  prompt: z.string(),
  role: z.enum(['user', 'assistant']),
  content: z.array(ContextPart),
});
/** Something the host tells the person inside the conversation (iteration limit, stop, error). */
const NoticeBlock = z.object({
  type: z.literal('notice'),
  level: z.enum(['info', 'warning', 'error']),
  text: z.string(),
  /**
   * "interrupted": the host stopped (crashed, was killed) before the turn
   * ended. The person can retry it; a new message leaves its unanswered
   * question out of what Claude sees, instead of merging the two.
   */
  kind: z.enum(['interrupted']).optional(),
});

export const ChatBlockSchema = z.discriminatedUnion('type', [
  TextBlock,
  ImageBlock,
  ToolUseBlock,
  ToolResultBlock,
  NoticeBlock,
  ResourceContextBlock,
  PromptMessageBlock,
]);
export type ChatBlock = z.infer<typeof ChatBlockSchema>;
export type ToolUseChatBlock = z.infer<typeof ToolUseBlock>;
export type ToolResultChatBlock = z.infer<typeof ToolResultBlock>;
export type ResourceContextChatBlock = z.infer<typeof ResourceContextBlock>;
export type PromptMessageChatBlock = z.infer<typeof PromptMessageBlock>;

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
  /** How the call was allowed: asked the user, or an "always allow" policy. */
  allowedBy: z.enum(['user', 'policy']).optional(),
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

export const TurnStartedSchema = z.object({
  turnId: z.string(),
  /** The committed user message (absent for retryTurn). */
  userMessage: ChatMessageSchema.optional(),
});
export type TurnStarted = z.infer<typeof TurnStartedSchema>;

export const ToolPolicySchema = z.object({
  id: z.string(),
  server: z.string(),
  tool: z.string(),
  createdAt: z.number(),
});
export type ToolPolicy = z.infer<typeof ToolPolicySchema>;

export const AuditDecisionSchema = z.enum([
  'allow_once',
  'always_allow',
  'policy_allow',
  'deny',
  'withdrawn',
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
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

export const FullToolResultSchema = z.object({
  toolUseId: z.string(),
  content: z.array(ContentBlockSchema),
  structuredContent: z.string().optional(),
});
export type FullToolResult = z.infer<typeof FullToolResultSchema>;
