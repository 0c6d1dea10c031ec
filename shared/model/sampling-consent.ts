import { z } from 'zod';

/**
 * The consent prompts and answers of sampling (rows of the `consentKinds`
 * table): `sampling` asks whether a server's request may go to Claude (the
 * person may edit it), `samplingReview` shows Claude's completion before it
 * is returned to the server (approve, edit or reject).
 */

const text = z.string().max(1_000_000);

/** One content block of a sampling message, as the dialog shows it. */
export const SamplingPartSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text }),
  z.object({
    type: z.literal('image'),
    mimeType: z.string().max(200),
    bytes: z.number().int().nonnegative(),
  }),
  z.object({
    type: z.literal('audio'),
    mimeType: z.string().max(200),
    bytes: z.number().int().nonnegative(),
  }),
  z.object({
    type: z.literal('tool_use'),
    id: z.string().max(512),
    name: z.string().max(512),
    inputJson: text,
  }),
  z.object({
    type: z.literal('tool_result'),
    toolUseId: z.string().max(512),
    text,
    isError: z.boolean(),
  }),
]);
export type SamplingPart = z.infer<typeof SamplingPartSchema>;

export const SamplingMessageViewSchema = z.object({
  role: z.enum(['user', 'assistant']),
  parts: z.array(SamplingPartSchema),
});
export type SamplingMessageView = z.infer<typeof SamplingMessageViewSchema>;

export const IncludeContextSchema = z.enum(['none', 'thisServer', 'allServers']);
export type IncludeContext = z.infer<typeof IncludeContextSchema>;

const priority = z.number().min(0).max(1).optional();

export const SamplingPromptSchema = z.object({
  messages: z.array(SamplingMessageViewSchema),
  systemPrompt: text.optional(),
  maxTokens: z.number().int(),
  temperature: z.number().optional(),
  stopSequences: z.array(z.string()).optional(),
  modelPreferences: z
    .object({
      hints: z.array(z.string()),
      costPriority: priority,
      speedPriority: priority,
      intelligencePriority: priority,
    })
    .optional(),
  /** The Claude model the host chose, and why (one line). */
  model: z.string(),
  modelReason: z.string(),
  /** What the server asked for; anything but "none" needs the person's explicit yes. */
  includeContext: IncludeContextSchema,
  /** Set when the host will not do exactly what was asked (e.g. "allServers"). */
  contextNotice: z.string().optional(),
  /** The server's own context that would be added if the person allows it. */
  contextPreview: text.optional(),
  tools: z.array(z.object({ name: z.string(), description: z.string().optional() })),
  toolChoice: z.enum(['auto', 'required', 'none']).optional(),
});
export type SamplingPrompt = z.infer<typeof SamplingPromptSchema>;

/** The largest maxTokens the person may set in the dialog. */
export const MAX_SAMPLING_TOKENS = 64_000;

const textEdit = z.object({
  message: z.number().int().nonnegative(),
  part: z.number().int().nonnegative(),
  text,
});

export const SamplingAnswerSchema = z.discriminatedUnion('decision', [
  z.object({
    decision: z.literal('approve'),
    /** Replacement texts of text parts (by message and part index); others are sent as the server wrote them. */
    textEdits: z.array(textEdit).max(10_000).default([]),
    systemPrompt: text.optional(),
    maxTokens: z.number().int().min(1).max(MAX_SAMPLING_TOKENS),
    /** The person's explicit yes to adding this server's own context. */
    includeContext: z.boolean().default(false),
  }),
  z.object({ decision: z.literal('reject') }),
]);
export type SamplingAnswer = z.infer<typeof SamplingAnswerSchema>;

export const SamplingReviewPromptSchema = z.object({
  model: z.string(),
  stopReason: z.string().optional(),
  parts: z.array(SamplingPartSchema),
});
export type SamplingReviewPrompt = z.infer<typeof SamplingReviewPromptSchema>;

export const SamplingReviewAnswerSchema = z.discriminatedUnion('decision', [
  z.object({
    decision: z.literal('approve'),
    /** Replacement texts of the completion's text parts (by part index). */
    textEdits: z
      .array(z.object({ part: z.number().int().nonnegative(), text }))
      .max(10_000)
      .default([]),
  }),
  z.object({ decision: z.literal('reject') }),
]);
export type SamplingReviewAnswer = z.infer<typeof SamplingReviewAnswerSchema>;
