import { z } from 'zod';
import { ServerNameSchema } from './config.js';
import {
  ContentBlockSchema,
  PromptInfoSchema,
  ResourceInfoSchema,
  ResourceTemplateInfoSchema,
} from './server.js';

/**
 * What the host tells the UI about a server's resources, prompts,
 * completions and roots (beyond the listings in the server snapshot).
 * Everything a server supplied is parsed with these schemas before it
 * leaves the host.
 */

/** Longest URI or URI template accepted from the renderer. */
export const MAX_URI_LENGTH = 8192;

export const ResourceUriSchema = z.string().min(1).max(MAX_URI_LENGTH);

/** A server's resources and templates (all pages, from the catalog) and what it allows with them. */
export const ResourceListingSchema = z.object({
  resources: z.array(ResourceInfoSchema),
  templates: z.array(ResourceTemplateInfoSchema),
  /** The server declared `resources.subscribe`. */
  subscribe: z.boolean(),
  /** The server declared `completions` (template variables can be completed). */
  completions: z.boolean(),
});
export type ResourceListing = z.infer<typeof ResourceListingSchema>;

/** One connected server's prompts (all pages, from the catalog). */
export const ServerPromptsSchema = z.object({
  server: z.string(),
  prompts: z.array(PromptInfoSchema),
  /** The server declared `completions` (prompt arguments can be completed). */
  completions: z.boolean(),
});
export type ServerPrompts = z.infer<typeof ServerPromptsSchema>;

/** One folder a server may see: a file:// URI, its display name and local path. */
export const RootInfoSchema = z.object({
  uri: z.string(),
  name: z.string(),
  /** The local path the URI stands for (for display). */
  path: z.string(),
});
export type RootInfo = z.infer<typeof RootInfoSchema>;

const TextContent = z.object({
  kind: z.literal('text'),
  uri: z.string(),
  mimeType: z.string().optional(),
  text: z.string(),
  /** Set when the text was cut to the display limit; `totalChars` is its full length. */
  truncated: z.boolean().optional(),
  totalChars: z.number().optional(),
});
const BinaryContent = z.object({
  kind: z.literal('binary'),
  uri: z.string(),
  mimeType: z.string().optional(),
  /** Decoded size in bytes. */
  bytes: z.number(),
  /** Base64 data, only for image/* up to the preview limit; other bytes stay in the host. */
  previewData: z.string().optional(),
});

/** One item of a resources/read result, as the UI shows it. */
export const ResourceContentSchema = z.discriminatedUnion('kind', [TextContent, BinaryContent]);
export type ResourceContent = z.infer<typeof ResourceContentSchema>;

export const ResourceReadResultSchema = z.object({
  /** The URI that was read (a template's expansion when read through one). */
  uri: z.string(),
  contents: z.array(ResourceContentSchema),
  /** When the host received the contents (ms since the epoch). */
  readAt: z.number(),
});
export type ResourceReadResult = z.infer<typeof ResourceReadResultSchema>;

/** What to read: a concrete URI, or a template with its variables filled in. */
export const ResourceTargetSchema = z.union([
  z.object({ uri: ResourceUriSchema }).strict(),
  z
    .object({
      uriTemplate: ResourceUriSchema,
      variables: z.record(z.string().max(256), z.string().max(MAX_URI_LENGTH)),
    })
    .strict(),
]);
export type ResourceTarget = z.infer<typeof ResourceTargetSchema>;

/** What a completion is for: a prompt's argument or a resource template's variable. */
export const CompletionRefSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('prompt'), name: z.string().min(1).max(256) }).strict(),
  z.object({ type: z.literal('resource'), uri: ResourceUriSchema }).strict(),
]);
export type CompletionRef = z.infer<typeof CompletionRefSchema>;

export const CompleteParamsSchema = z
  .object({
    server: ServerNameSchema,
    ref: CompletionRefSchema,
    argument: z.object({ name: z.string().min(1).max(256), value: z.string().max(4096) }).strict(),
    /** Values of the other arguments already filled in, so a server can narrow its suggestions. */
    context: z.record(z.string().max(256), z.string().max(4096)).optional(),
  })
  .strict();

/** At most 100 suggestions, as the protocol allows. */
export const CompletionResultSchema = z.object({
  values: z.array(z.string()).max(100),
  total: z.number().optional(),
  hasMore: z.boolean().optional(),
});
export type CompletionResult = z.infer<typeof CompletionResultSchema>;

export const PromptMessageViewSchema = z.object({
  role: z.enum(['user', 'assistant']),
  content: ContentBlockSchema,
});
export type PromptMessageView = z.infer<typeof PromptMessageViewSchema>;

/** A prompts/get result: the messages to put into a conversation. */
export const PromptResultSchema = z.object({
  server: z.string(),
  name: z.string(),
  description: z.string().optional(),
  messages: z.array(PromptMessageViewSchema),
});
export type PromptResult = z.infer<typeof PromptResultSchema>;

/** A subscribed resource changed on the server (`notifications/resources/updated`). */
export const ResourceUpdatedSchema = z.object({
  server: z.string(),
  uri: z.string(),
  at: z.number(),
});
export type ResourceUpdated = z.infer<typeof ResourceUpdatedSchema>;
