import { z } from 'zod';
import { RequestedSchemaSchema } from './elicitation-form.js';

/**
 * The consent prompts and answers of elicitation (rows of the
 * `consentKinds` table): a form drawn from the server's schema, and a URL
 * to open in the system browser.
 */

export const ElicitationFormPromptSchema = z.object({
  message: z.string().max(100_000),
  requestedSchema: RequestedSchemaSchema,
});
export type ElicitationFormPrompt = z.infer<typeof ElicitationFormPromptSchema>;

const contentValue = z.union([
  z.string().max(1_000_000),
  z.number(),
  z.boolean(),
  z.array(z.string().max(100_000)).max(10_000),
]);

export const ElicitationFormAnswerSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('accept'), content: z.record(z.string().max(256), contentValue) }),
  z.object({ action: z.literal('decline') }),
  z.object({ action: z.literal('cancel') }),
]);
export type ElicitationFormAnswer = z.infer<typeof ElicitationFormAnswerSchema>;

export const ElicitationUrlPromptSchema = z.object({
  message: z.string().max(100_000),
  url: z.string().max(100_000),
  elicitationId: z.string().max(1000),
});
export type ElicitationUrlPrompt = z.infer<typeof ElicitationUrlPromptSchema>;

/** accept: open the URL in the system browser; decline: don't; cancel: dismissed without choosing. */
export const ElicitationUrlAnswerSchema = z.object({ action: z.enum(['accept', 'decline', 'cancel']) });
export type ElicitationUrlAnswer = z.infer<typeof ElicitationUrlAnswerSchema>;
