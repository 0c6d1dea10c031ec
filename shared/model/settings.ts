import { z } from 'zod';

/**
 * Settings of the chat with Claude, as the renderer sees them. The API key
 * itself never leaves the host: the renderer only learns whether one is set
 * and a hint ("sk-…abcd") so the person can tell which key it is.
 */

export const DEFAULT_BASE_URL = 'https://api.anthropic.com';
export const DEFAULT_MODEL = 'claude-sonnet-4-6';
export const DEFAULT_MAX_ITERATIONS = 25;

/**
 * Tool search: "auto" defers the tools' definitions (the API's tool search
 * tool finds the ones Claude needs) once the enabled tools pass either
 * threshold; "always" defers at any size; "off" always sends every definition.
 */
export const ToolSearchModeSchema = z.enum(['auto', 'always', 'off']);
export type ToolSearchMode = z.infer<typeof ToolSearchModeSchema>;

export const ToolSearchSettingsSchema = z.object({
  mode: ToolSearchModeSchema,
  /** "auto" turns tool search on from this many offered tools… */
  minTools: z.number().int().min(1).max(10_000),
  /** …or from this many (estimated) tokens of tool definitions. */
  minTokens: z.number().int().min(100).max(1_000_000),
});
export type ToolSearchSettings = z.infer<typeof ToolSearchSettingsSchema>;

export const DEFAULT_TOOL_SEARCH: ToolSearchSettings = { mode: 'auto', minTools: 30, minTokens: 10_000 };

/** A tool the person pinned: its definition is always sent, never deferred. */
export const PinnedToolSchema = z.object({ server: z.string().max(64), tool: z.string().max(256) }).strict();
export type PinnedTool = z.infer<typeof PinnedToolSchema>;

export const ApiKeyStateSchema = z.object({
  /** A key is saved for the current base URL's host, so the chat can use it. */
  set: z.boolean(),
  /** "sk-…abcd": the first three and last four characters, present when a key is saved. */
  hint: z.string().optional(),
  /** False when the platform cannot encrypt (the key is stored obfuscated only). */
  encrypted: z.boolean(),
  /**
   * Where the key is (or, when none is set, would be) kept: the OS keychain,
   * encrypted by a key the OS keeps (Electron safeStorage), or only
   * obfuscated in a file only the user can read.
   */
  storage: z.enum(['os-keychain', 'encrypted', 'obfuscated-file']).optional(),
  /**
   * A key is saved, but for another host (the origin it was entered for): it
   * is not sent to the current base URL until the person allows it there or
   * enters a key again.
   */
  heldFor: z.string().optional(),
});
export type ApiKeyState = z.infer<typeof ApiKeyStateSchema>;

/** The official MCP registry; a company may point the app at its own (Settings). */
export const DEFAULT_REGISTRY_URL = 'https://registry.modelcontextprotocol.io';

export const SettingsSchema = z.object({
  /** Messages API endpoint; any Anthropic-compatible endpoint works. */
  baseUrl: z.string(),
  model: z.string(),
  /** Model requests per turn before the loop stops with a notice. */
  maxIterations: z.number().int(),
  apiKey: ApiKeyStateSchema,
  toolSearch: ToolSearchSettingsSchema,
  pinnedTools: z.array(PinnedToolSchema),
  /** The MCP registry the Browse view searches. */
  registryUrl: z.string(),
});
export type Settings = z.infer<typeof SettingsSchema>;

/** Loopback names and addresses: the only hosts plain http may carry the key to. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return (
    host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host)
  );
}

/** The origin ("https://api.anthropic.com") a key is bound to; the URL itself when it does not parse. */
export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** A registry address: https, or plain http only for this computer (a local or test registry). */
export const RegistryUrlSchema = z
  .url({ protocol: /^https?$/, error: 'The registry URL must be http:// or https://' })
  .max(2048)
  .refine((url) => !url.startsWith('http:') || isLoopbackHost(new URL(url).hostname), {
    message:
      'The registry URL must use https:// (plain http:// only for this computer: localhost, 127.0.0.1, ::1)',
  });

export const UpdateSettingsSchema = z
  .object({
    baseUrl: z
      .url({ protocol: /^https?$/, error: 'Base URL must be http:// or https://' })
      .max(2048)
      .refine((url) => !url.startsWith('http:') || isLoopbackHost(new URL(url).hostname), {
        message:
          'Base URL must use https:// (plain http:// only for this computer: localhost, 127.0.0.1, ::1)',
      })
      .optional(),
    model: z.string().trim().min(1).max(256).optional(),
    maxIterations: z.number().int().min(1).max(200).optional(),
    toolSearch: ToolSearchSettingsSchema.partial().strict().optional(),
    registryUrl: RegistryUrlSchema.optional(),
    /**
     * The person allows the saved key to be sent to this origin (which must be
     * the base URL's, after this update): the explicit confirmation that lets
     * a key follow a base URL to another host.
     */
    allowKeyFor: z.string().max(2048).optional(),
  })
  .strict();
export type UpdateSettings = z.infer<typeof UpdateSettingsSchema>;

export const ModelInfoSchema = z.object({
  id: z.string(),
  displayName: z.string(),
  createdAt: z.string().optional(),
  /** The model's context window in tokens, when the models API says. */
  contextWindow: z.number().optional(),
  /** Whether the model takes adaptive thinking, when the models API says. */
  adaptiveThinking: z.boolean().optional(),
});
export type ModelInfo = z.infer<typeof ModelInfoSchema>;

export const ModelListSchema = z.object({
  models: z.array(ModelInfoSchema),
  /** "api" when the models API answered; "default" when it could not be reached. */
  source: z.enum(['api', 'default']),
  /** Why the models API could not be used (one line), when source is "default". */
  error: z.string().optional(),
});
export type ModelList = z.infer<typeof ModelListSchema>;
