import { z } from 'zod';
import { ServerNameSchema } from './config.js';

/**
 * The MCP registry as the renderer sees it: search results, and the install
 * plans the host prepares from a registry entry or an install link. The
 * host fetches and validates the registry's answers (its own schema, with
 * bounds); these are the already-checked views that cross the IPC boundary.
 */

/** How an entry runs: a local package (npm, PyPI, a container image) or a remote server. */
export const EntryKindSchema = z.enum(['npm', 'pypi', 'oci', 'remote', 'other']);
export type EntryKind = z.infer<typeof EntryKindSchema>;

/** One search result. Text is the registry's, bounded; the view shows hidden characters. */
export const RegistryEntrySchema = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string(),
  version: z.string(),
  /** http(s) only; absent when the registry gave none or something else. */
  repositoryUrl: z.string().optional(),
  websiteUrl: z.string().optional(),
  kinds: z.array(EntryKindSchema),
  /** "deprecated" entries are shown with their status message. */
  status: z.enum(['active', 'deprecated', 'deleted']).optional(),
  statusMessage: z.string().optional(),
});
export type RegistryEntry = z.infer<typeof RegistryEntrySchema>;

export const RegistryPageSchema = z.object({
  entries: z.array(RegistryEntrySchema),
  /** Pass back as `cursor` for the next page; absent on the last page. */
  nextCursor: z.string().optional(),
  /** The registry that answered (the setting at the time). */
  registryUrl: z.string(),
  /** Entries of this page that did not match the registry's schema and are not shown. */
  skipped: z.number().int(),
});
export type RegistryPage = z.infer<typeof RegistryPageSchema>;

export const SearchRegistrySchema = z
  .object({
    query: z.string().trim().max(200).default(''),
    cursor: z.string().max(1024).optional(),
  })
  .strict();

/** Where a value the person types goes. */
export const FieldTargetSchema = z.enum(['env', 'argument', 'header', 'url']);

/** A value the person is asked for before installing (an env variable, argument, header or URL part). */
export const InstallFieldSchema = z.object({
  /** The key of `values` in the install request. */
  id: z.string(),
  label: z.string(),
  description: z.string().optional(),
  target: FieldTargetSchema,
  /** Masked in the form and stored encrypted, never in the configuration file. */
  secret: z.boolean(),
  required: z.boolean(),
  default: z.string().optional(),
  placeholder: z.string().optional(),
  /** The value must be one of these. */
  choices: z.array(z.string()).optional(),
  format: z.enum(['string', 'number', 'boolean', 'filepath']),
});
export type InstallField = z.infer<typeof InstallFieldSchema>;

/** A variable or header with the value it gets (a secret the person types shows as "••••••"). */
export const NamedValueSchema = z.object({ name: z.string(), value: z.string() });
export type NamedValue = z.infer<typeof NamedValueSchema>;

/**
 * What will run: the command and arguments with the env variables it sets,
 * or the URL and headers of a remote server, each with its value: an
 * outsider's value is shown, never only its name. Before values are filled
 * in (an option's template) `<name>` stands where a value goes.
 */
export const InstallTemplateSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('stdio'),
    command: z.string(),
    args: z.array(z.string()),
    envNames: z.array(z.string()),
    env: z.array(NamedValueSchema),
  }),
  z.object({
    kind: z.literal('remote'),
    url: z.string(),
    transport: z.enum(['streamable-http', 'sse']),
    headerNames: z.array(z.string()),
    headers: z.array(NamedValueSchema),
  }),
]);
export type InstallTemplate = z.infer<typeof InstallTemplateSchema>;

/** The runtime an option needs, as found on this machine. */
export const RuntimeCheckSchema = z.object({
  /** npx, uvx or docker. */
  command: z.string(),
  found: z.boolean(),
  /** "needs uv (uvx), not found on this machine", or how it will run ("using the app's own runtime"). */
  note: z.string().optional(),
});
export type RuntimeCheck = z.infer<typeof RuntimeCheckSchema>;

/** One way to install an entry: one of its packages or remotes. */
export const InstallOptionSchema = z.object({
  index: z.number().int(),
  kind: EntryKindSchema,
  /** "npm package @scope/name 1.2.3", "Remote server (Streamable HTTP)". */
  label: z.string(),
  /** Why this option cannot be installed, in one line; absent when it can. */
  problem: z.string().optional(),
  runtime: RuntimeCheckSchema.optional(),
  template: InstallTemplateSchema.optional(),
  fields: z.array(InstallFieldSchema),
  /** One line each: launcher options the entry adds that the person should read twice. */
  warnings: z.array(z.string()).optional(),
});
export type InstallOption = z.infer<typeof InstallOptionSchema>;

/** An install the host prepared (from the registry or a link) and holds under `id` until it is done. */
export const PendingInstallSchema = z.object({
  id: z.string(),
  source: z.enum(['registry', 'link']),
  /** The registry that served the entry, or "an install link". */
  origin: z.string(),
  /** A server name that is free in the configuration (the entry's own, or with a number added). */
  suggestedName: z.string(),
  /** The registry name ("io.github.org/server") or the link's name. */
  entryName: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  version: z.string().optional(),
  repositoryUrl: z.string().optional(),
  options: z.array(InstallOptionSchema),
  /** One line each: things the person should know (a deprecated entry…). */
  warnings: z.array(z.string()),
});
export type PendingInstall = z.infer<typeof PendingInstallSchema>;

export const InstallIdSchema = z
  .string()
  .min(8)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/);

export const PrepareRegistryInstallSchema = z
  .object({ name: z.string().min(1).max(200), version: z.string().min(1).max(255) })
  .strict();

/** The person's choices for a pending install: which option, the server's name, and the values asked for. */
export const InstallRequestSchema = z
  .object({
    id: InstallIdSchema,
    option: z.number().int().min(0).max(63),
    name: ServerNameSchema,
    values: z.record(z.string().max(128), z.string().max(16_384)).default({}),
  })
  .strict();
export type InstallRequest = z.infer<typeof InstallRequestSchema>;
export type InstallRequestInput = z.input<typeof InstallRequestSchema>;

/**
 * Exactly what will be written and run, values filled in (a secret shows as
 * "••••••"): the review step before Install.
 */
export const InstallPreviewSchema = z.object({
  name: z.string(),
  /** The same shape as the option's template, with the values in place of `<name>`. */
  launch: InstallTemplateSchema,
  /** Names of the values stored encrypted (never in the configuration file). */
  secrets: z.array(z.string()),
  runtime: RuntimeCheckSchema.optional(),
});
export type InstallPreview = z.infer<typeof InstallPreviewSchema>;

/** Shown where a secret's value would be. */
export const MASKED = '••••••';
