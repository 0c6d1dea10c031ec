import { z } from 'zod';
import { ToolMetaSchema } from './tool-meta.js';
import { ServerIdentitySchema } from './consent-rules.js';
import { SandboxBlockedSchema, SandboxConfigSchema, ServerSandboxSchema } from './sandbox.js';
import { ServerPrioritySchema } from './config.js';

/**
 * What the host tells the UI about a server. Everything here that a server
 * supplied (names, descriptions, schemas) is parsed with these schemas before
 * it leaves the host, so the renderer only ever sees shapes it understands.
 */

export const ServerStatusSchema = z.enum([
  'connecting',
  'connected',
  /** Crashed; a restart is scheduled at `restartAt`. */
  'restarting',
  'failed',
  /** A remote server that wants an OAuth sign-in; see `auth`. */
  'sign-in-required',
  'stopped',
  'disabled',
]);
export type ServerStatus = z.infer<typeof ServerStatusSchema>;

export const JsonObjectSchema = z.record(z.string(), z.unknown());

export const ToolAnnotationsSchema = z.looseObject({
  title: z.string().optional(),
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional(),
});

export const ToolInfoSchema = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: JsonObjectSchema,
  annotations: ToolAnnotationsSchema.optional(),
  /** Turned off in the config (`disabledTools`): never offered to the model, calls are refused. */
  disabled: z.boolean().optional(),
  /** MCP Apps: the tool's `ui://` view and who may call it (shared/model/apps.ts). */
  _meta: ToolMetaSchema.optional().catch(undefined),
  /** Whether the tool may or must run as a task (2025-11-25 `execution.taskSupport`). */
  execution: z
    .object({ taskSupport: z.enum(['forbidden', 'optional', 'required']).optional().catch(undefined) })
    .optional()
    .catch(undefined),
});
export type ToolInfo = z.infer<typeof ToolInfoSchema>;

const IconListSchema = z
  .array(z.looseObject({ src: z.string(), mimeType: z.string().optional() }))
  .optional();

/** A resource a server lists (`resources/list`). */
export const ResourceInfoSchema = z.object({
  uri: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  /** Size in bytes, when the server knows it. */
  size: z.number().optional(),
  icons: IconListSchema,
});
export type ResourceInfo = z.infer<typeof ResourceInfoSchema>;

/** A parameterised resource (`resources/templates/list`): an RFC 6570 URI template. */
export const ResourceTemplateInfoSchema = z.object({
  uriTemplate: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  icons: IconListSchema,
});
export type ResourceTemplateInfo = z.infer<typeof ResourceTemplateInfoSchema>;

export const PromptArgumentInfoSchema = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  required: z.boolean().optional(),
});
export type PromptArgumentInfo = z.infer<typeof PromptArgumentInfoSchema>;

/** A prompt template a server lists (`prompts/list`), with the arguments it takes. */
export const PromptInfoSchema = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  arguments: z.array(PromptArgumentInfoSchema).optional(),
  icons: IconListSchema,
});
export type PromptInfo = z.infer<typeof PromptInfoSchema>;

export const ServerInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  title: z.string().optional(),
});
export type ServerInfo = z.infer<typeof ServerInfoSchema>;

/**
 * How a stdio server's command was resolved: found on the PATH (the login
 * shell's, merged with the app's), given as a path, or `node`/`npx` mapped to
 * the app's own Node runtime because no system Node was found.
 */
export const ServerRuntimeSchema = z.object({
  source: z.enum(['path', 'explicit', 'app-runtime']),
  /** The executable actually started. */
  executable: z.string(),
  /** One line for people, e.g. "node not found on PATH: using the app's own Node runtime (v20.20.0)". */
  note: z.string().optional(),
});
export type ServerRuntime = z.infer<typeof ServerRuntimeSchema>;

/** A package launcher (npx, uvx, …) through which a stdio command runs; its first run may download. */
export const ServerLauncherSchema = z.object({
  /** e.g. "npx", "uvx", "pnpm dlx". */
  name: z.string(),
  /** It fetches the package when it is not cached yet, so a first start can take a while. */
  mayDownload: z.boolean(),
});
export type ServerLauncher = z.infer<typeof ServerLauncherSchema>;

/** Lines a stdio server wrote to stdout that were not MCP messages: skipped, counted, the first kept. */
export const StrayStdoutSchema = z.object({
  count: z.number().int(),
  /** The first few such lines, each cut to 200 characters. */
  first: z.array(z.string()),
});
export type StrayStdout = z.infer<typeof StrayStdoutSchema>;

/**
 * OAuth state of a remote server. Never carries a token: only what the
 * person needs to see (who issued the sign-in, for whom, what it allows,
 * until when).
 */
export const ServerAuthSchema = z.object({
  /**
   * `required`: the server wants a sign-in (status "sign-in-required");
   * `waiting`: the browser is open and the host waits for it to come back;
   * `signed-in`: tokens are held.
   */
  state: z.enum(['required', 'waiting', 'signed-in']),
  /** One line: why sign-in is required (e.g. "The sign-in expired"), or how the last attempt failed. */
  message: z.string().max(1000).optional(),
  /** The authorization server that issued (or will issue) the tokens. */
  issuer: z.string().max(2048).optional(),
  /** The signed-in account, where the authorization server says (ID token `email`/`preferred_username`/`sub`). */
  account: z.string().max(512).optional(),
  /** Granted scopes. */
  scopes: z.array(z.string().max(256)).max(256).optional(),
  /** When the access token expires (ms since the epoch); absent when the server did not say. */
  expiresAt: z.number().optional(),
  /** Whether a refresh token is held (the sign-in renews itself). */
  refreshable: z.boolean().optional(),
  /** When state is "waiting": when the host gives up waiting for the browser (ms since the epoch). */
  waitingUntil: z.number().optional(),
  /**
   * When state is "waiting": the authorization page the browser was asked to
   * open, for a "did your browser not open?" link (no secret: the PKCE
   * verifier never leaves the host).
   */
  authorizationUrl: z
    .url({ protocol: /^https?$/ })
    .max(8192)
    .optional(),
  /**
   * The issuer a pre-registered client belongs to (`oauth.issuer`, else the
   * first one it was used with): no other one gets its secret.
   */
  clientIssuer: z.string().max(2048).optional(),
  /** How the host is known to the authorization server. */
  client: z
    .enum([
      'pre-registered',
      'metadata-document',
      'dynamic',
      'client-credentials',
      'workload-identity',
      'enterprise',
    ])
    .optional(),
});
export type ServerAuth = z.infer<typeof ServerAuthSchema>;

export const ServerTransportKindSchema = z.enum(['stdio', 'http']);
/** The HTTP transport actually in use: Streamable HTTP, or the legacy HTTP+SSE it fell back to. */
export const HttpTransportKindSchema = z.enum(['streamable-http', 'sse']);
export type HttpTransportKind = z.infer<typeof HttpTransportKindSchema>;

export const ServerSnapshotSchema = z.object({
  name: z.string(),
  transport: ServerTransportKindSchema,
  /** What is run or reached, for display: "npx -y pkg" or the URL. */
  target: z.string(),
  /** For an http server that connected: which HTTP transport was used. */
  httpTransport: HttpTransportKindSchema.optional(),
  status: ServerStatusSchema,
  /** One line, present when status is "failed". */
  error: z.string().optional(),
  protocolVersion: z.string().optional(),
  era: z.enum(['modern', 'legacy']).optional(),
  serverInfo: ServerInfoSchema.optional(),
  instructions: z.string().optional(),
  capabilities: z.object({
    tools: z.boolean(),
    resources: z.boolean(),
    prompts: z.boolean(),
    logging: z.boolean(),
  }),
  tools: z.array(ToolInfoSchema),
  /** The server listed more tools than the host keeps per server: only `kept` are offered. */
  toolsCapped: z.object({ listed: z.number(), kept: z.number() }).optional(),
  counts: z.object({
    tools: z.number(),
    resources: z.number(),
    prompts: z.number(),
    resourceTemplates: z.number().optional(),
  }),
  pid: z.number().optional(),
  /** Stdio only, with `pid`: the CPU priority the process runs at (`lower`: below normal, config.ts). */
  priority: ServerPrioritySchema.optional(),
  /** The last lines the server wrote to stderr, newest last. */
  stderrTail: z.array(z.string()),
  connectedAt: z.number().optional(),
  /** Crashes within the restart window; 0 or absent when the server has not crashed. */
  crashCount: z.number().optional(),
  /** When status is "restarting": when the next attempt starts (ms since the epoch). */
  restartAt: z.number().optional(),
  /** Stdio only: how the command was resolved at the last start. */
  runtime: ServerRuntimeSchema.optional(),
  /** When status is "connecting": when this start began (ms since the epoch), for an elapsed-time display. */
  startingSince: z.number().optional(),
  /** How long the server may take to complete the MCP handshake, in ms. */
  connectTimeoutMs: z.number().optional(),
  /** Stdio only: the package launcher the command runs through, if any. */
  launcher: ServerLauncherSchema.optional(),
  /** Stdio only: stdout lines that were not MCP messages since the last start. */
  strayStdout: StrayStdoutSchema.optional(),
  /** What the name stands for (program or URL); consent rules are bound to it. */
  identity: ServerIdentitySchema.optional(),
  /** Remote servers that use OAuth: the sign-in state. */
  auth: ServerAuthSchema.optional(),
  /** Installed from an MCP bundle (.mcpb): its id and version. */
  bundle: z.object({ id: z.string().max(200), version: z.string().max(64) }).optional(),
  /** Stdio only: the OS sandbox it runs in, or why it does not. */
  sandbox: ServerSandboxSchema.optional(),
  /** Stdio only: the entry's own `sandbox` settings (folders and hosts), as its Settings tab edits them. */
  sandboxSettings: SandboxConfigSchema.optional(),
});
export type ServerSnapshot = z.infer<typeof ServerSnapshotSchema>;

const TextBlock = z.object({ type: z.literal('text'), text: z.string() });
const ImageBlock = z.object({ type: z.literal('image'), data: z.string(), mimeType: z.string() });
const AudioBlock = z.object({ type: z.literal('audio'), data: z.string(), mimeType: z.string() });
const ResourceLinkBlock = z.object({
  type: z.literal('resource_link'),
  uri: z.string(),
  name: z.string().optional(),
  mimeType: z.string().optional(),
  description: z.string().optional(),
});
const EmbeddedResourceBlock = z.object({
  type: z.literal('resource'),
  uri: z.string(),
  mimeType: z.string().optional(),
  text: z.string().optional(),
  /** Size in bytes of a binary resource; the bytes stay in the host. */
  blobBytes: z.number().optional(),
});
/** A block of a kind this version does not know, kept as JSON for display. */
const UnknownBlock = z.object({ type: z.literal('unknown'), json: z.string() });

export const ContentBlockSchema = z.discriminatedUnion('type', [
  TextBlock,
  ImageBlock,
  AudioBlock,
  ResourceLinkBlock,
  EmbeddedResourceBlock,
  UnknownBlock,
]);
export type ContentBlock = z.infer<typeof ContentBlockSchema>;

export const ToolCallResultSchema = z.object({
  isError: z.boolean(),
  content: z.array(ContentBlockSchema),
  /** structuredContent, pretty-printed, when the tool returned it. */
  structuredContent: z.string().optional(),
  durationMs: z.number(),
  /** A failed call of a sandboxed server: what the sandbox blocked while it ran. */
  sandboxBlocked: SandboxBlockedSchema.optional(),
});
export type ToolCallResult = z.infer<typeof ToolCallResultSchema>;

/** A progress notification of a running tool call, forwarded to the renderer. */
export const ToolCallProgressSchema = z.object({
  callId: z.string(),
  server: z.string(),
  tool: z.string(),
  progress: z.number(),
  total: z.number().optional(),
  message: z.string().max(1000).optional(),
});
export type ToolCallProgress = z.infer<typeof ToolCallProgressSchema>;
