import { z } from 'zod';
import { ServerNameSchema } from './config.js';

/** Where servers can be imported from. "pasted" is JSON the person pasted (either shape). */
export const ImportSourceSchema = z.enum(['claude-desktop', 'vscode', 'cursor', 'pasted']);
export type ImportSource = z.infer<typeof ImportSourceSchema>;

/** A known configuration file the host looked for (paths are the host's own, never the renderer's). */
export const ImportLocationSchema = z.object({
  source: ImportSourceSchema,
  label: z.string(),
  path: z.string(),
  found: z.boolean(),
});
export type ImportLocation = z.infer<typeof ImportLocationSchema>;

/** A VS Code `inputs` entry the imported servers refer to as ${input:id}. */
export const ImportInputSchema = z.object({
  id: z.string(),
  description: z.string().optional(),
  password: z.boolean(),
  default: z.string().optional(),
});
export type ImportInput = z.infer<typeof ImportInputSchema>;

/** One server as it will be imported: what runs or is reached, env/header names only (never values). */
export const ImportServerPreviewSchema = z.object({
  name: z.string(),
  transport: z.enum(['stdio', 'http']),
  /** Command line or URL. */
  target: z.string(),
  envNames: z.array(z.string()),
  headerNames: z.array(z.string()),
  /**
   * A remote entry: the variables of this machine's environment whose values
   * `${env:NAME}` sends to its URL (in the URL or a header). Empty for stdio.
   */
  sentVariables: z.array(z.string()),
  /** ${input:id} placeholders it uses. */
  inputIds: z.array(z.string()),
  /** A server with this name already exists. */
  conflict: z.boolean(),
  /** Why it cannot be imported as is (invalid entry); such servers are skipped. */
  problem: z.string().optional(),
});
export type ImportServerPreview = z.infer<typeof ImportServerPreviewSchema>;

export const ImportPreviewSchema = z.object({
  source: ImportSourceSchema,
  path: z.string().optional(),
  servers: z.array(ImportServerPreviewSchema),
  inputs: z.array(ImportInputSchema),
});
export type ImportPreview = z.infer<typeof ImportPreviewSchema>;

export const ImportChoiceSchema = z.discriminatedUnion('action', [
  z.object({ name: z.string(), action: z.literal('skip') }).strict(),
  z.object({ name: z.string(), action: z.literal('import'), as: ServerNameSchema }).strict(),
]);
export type ImportChoice = z.infer<typeof ImportChoiceSchema>;

export const ImportResultSchema = z.object({
  imported: z.array(z.string()),
  /** Local servers whose launch the person declined; they were not imported. */
  declined: z.array(z.string()),
});
export type ImportResult = z.infer<typeof ImportResultSchema>;

export const ImportRequestSchema = z
  .object({
    source: ImportSourceSchema,
    /** Only for "pasted". */
    text: z
      .string()
      .max(1024 * 1024)
      .optional(),
    choices: z.array(ImportChoiceSchema).max(500),
    /** Values for ${input:id}, by id. */
    inputs: z.record(z.string(), z.string().max(16_384)).default({}),
  })
  .strict();
export type ImportRequest = z.infer<typeof ImportRequestSchema>;
