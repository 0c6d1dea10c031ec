import { z } from 'zod';
import { ContentBlockSchema } from './server.js';
import { RuleRefSchema } from './consent-rules.js';
import { SandboxBlockedSchema } from './sandbox.js';

/** The blocks of a chat message: what Claude, the person, tools and the host put in a conversation. */

const TextBlock = z.object({ type: z.literal('text'), text: z.string() });
const ImageBlock = z.object({
  type: z.literal('image'),
  mimeType: z.string(),
  data: z.string(),
  /** The file name, for an image the person attached from a file. */
  name: z.string().optional(),
});
const ToolUseBlock = z.object({
  type: z.literal('tool_use'),
  /** The model's tool_use id; the matching tool_result carries it. */
  id: z.string(),
  server: z.string(),
  tool: z.string(),
  /** The arguments the model gave, as JSON text. */
  inputJson: z.string(),
  /** The tool was deferred (tool search) and Claude loaded it by searching. */
  foundBySearch: z.boolean().optional(),
});
/**
 * Claude's thinking (extended thinking). Kept with the message and sent back
 * exactly as received (the signature proves it is Claude's), as the API
 * requires across tool use.
 */
const ThinkingBlock = z.object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() });
/** Thinking the API returned encrypted: nothing to show, sent back as received. */
const RedactedThinkingBlock = z.object({ type: z.literal('redacted_thinking'), data: z.string() });
/**
 * A tool search Claude ran over the deferred tools (the API's tool search
 * tool, run on Anthropic's side): what it searched for and which tools it
 * loaded. Stored as (server, tool) pairs so the history stays valid when the
 * API names of tools change.
 */
const ToolSearchBlock = z.object({
  type: z.literal('tool_search'),
  /** The server_tool_use id. */
  id: z.string(),
  variant: z.enum(['bm25', 'regex']),
  /** The search's input as JSON text ({"query": …}). */
  inputJson: z.string(),
  found: z.array(z.object({ server: z.string(), tool: z.string() })),
  /** The search tool's error code, when it failed. */
  error: z.string().optional(),
});
/**
 * A summary the API wrote of the earlier conversation (context compaction).
 * The API reads only what follows it; `raw` is the block exactly as
 * received, sent back verbatim.
 */
const CompactionBlock = z.object({
  type: z.literal('compaction'),
  summary: z.string().nullable(),
  raw: z.string(),
});
/** A PDF or text file the person attached; goes to Claude as a document block. */
const DocumentBlock = z.object({
  type: z.literal('document'),
  name: z.string(),
  mimeType: z.string(),
  /** Size of the file in bytes. */
  bytes: z.number(),
  /** Base64 content (PDF). */
  data: z.string().optional(),
  /** Text content (text files). */
  text: z.string().optional(),
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
  /** How the call was allowed, kept so the card says it after a reload too. */
  allowedBy: z.enum(['user', 'policy']).optional(),
  /** The rule that allowed it without asking (with `allowedBy: "policy"`). */
  rule: RuleRefSchema.optional(),
  /** The call became this task: the content says it started; its end comes in a later message. */
  taskId: z.string().optional(),
  /** It failed while the server's sandbox blocked these attempts (the card says so and links to its Settings). */
  sandboxBlocked: SandboxBlockedSchema.optional(),
});
/**
 * The result of a tool call that ran as a task, delivered in a later
 * message (the call's own tool_result only said that the task started). It
 * reaches Claude as user content that names the tool call and the task.
 */
const TaskResultBlock = z.object({
  type: z.literal('task_result'),
  /** The tool call that started the task. */
  toolUseId: z.string(),
  server: z.string(),
  tool: z.string(),
  taskId: z.string(),
  /** How the task ended. */
  status: z.enum(['completed', 'failed', 'cancelled', 'lost']),
  isError: z.boolean(),
  /** The result (completed), or one line saying why there is none. */
  content: z.array(ContentBlockSchema),
  structuredContent: z.string().optional(),
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
  /** What the notice is about, so the host says a thing once per conversation. */
  code: z.string().optional(),
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
  TaskResultBlock,
  NoticeBlock,
  ResourceContextBlock,
  PromptMessageBlock,
  ThinkingBlock,
  RedactedThinkingBlock,
  ToolSearchBlock,
  CompactionBlock,
  DocumentBlock,
]);
export type ChatBlock = z.infer<typeof ChatBlockSchema>;
export type ThinkingChatBlock = z.infer<typeof ThinkingBlock>;
export type ToolSearchChatBlock = z.infer<typeof ToolSearchBlock>;
export type CompactionChatBlock = z.infer<typeof CompactionBlock>;
export type DocumentChatBlock = z.infer<typeof DocumentBlock>;
export type ToolUseChatBlock = z.infer<typeof ToolUseBlock>;
export type ToolResultChatBlock = z.infer<typeof ToolResultBlock>;
export type TaskResultChatBlock = z.infer<typeof TaskResultBlock>;
export type ResourceContextChatBlock = z.infer<typeof ResourceContextBlock>;
export type PromptMessageChatBlock = z.infer<typeof PromptMessageBlock>;
