import { z } from 'zod';
import { StdioServerInputSchema, ServerNameSchema } from '../model/config.js';
import { ServerSnapshotSchema, ToolCallProgressSchema, ToolCallResultSchema } from '../model/server.js';
import { AppInfoSchema, ConfigStateSchema } from '../model/app.js';
import { LogLevelSchema, ServerLogBatchSchema, ServerLogsSchema } from '../model/logs.js';
import { ServerInputSchema } from '../model/server-input.js';
import {
  ImportLocationSchema,
  ImportPreviewSchema,
  ImportRequestSchema,
  ImportResultSchema,
  ImportSourceSchema,
} from '../model/import.js';
import { ConsentIdSchema, ConsentRequestSchema, ConsentResolvedSchema } from '../model/consent.js';
import {
  BundleFieldKeySchema,
  BundleInstallSchema,
  BundlePreviewSchema,
  BundleSourceSchema,
  BundleTokenSchema,
  BundleUploadChunkSchema,
} from '../model/bundle.js';
import {
  AuditEntrySchema,
  ChatDeltaEventSchema,
  ChatMessageEventSchema,
  ConversationDetailSchema,
  ConversationIdSchema,
  ConversationSummarySchema,
  EditMessageSchema,
  FullToolResultSchema,
  SendMessageSchema,
  ToolCallUpdateEventSchema,
  TurnStartedSchema,
  TurnStateEventSchema,
  UsageEventSchema,
} from '../model/chat.js';
import { ConsentRulesSchema, ServerTrustScopeSchema } from '../model/consent-rules.js';
import {
  ModelListSchema,
  PinnedToolSchema,
  SettingsSchema,
  UpdateSettingsSchema,
} from '../model/settings.js';
import { ConversationSettingsSchema } from '../model/conversation-settings.js';
import {
  CompleteParamsSchema,
  CompletionResultSchema,
  PromptResultSchema,
  ResourceListingSchema,
  ResourceReadResultSchema,
  ResourceTargetSchema,
  ResourceUpdatedSchema,
  ResourceUriSchema,
  RootInfoSchema,
  ServerPromptsSchema,
} from '../model/features.js';
import {
  AppCallToolSchema,
  AppLogSchema,
  AppModelContextSchema,
  AppOpenLinkSchema,
  AppPermissionSchema,
  AppReadResourceSchema,
  AppResourceResultSchema,
  AppToolResultSchema,
  AppViewSchema,
  CloseAppViewSchema,
  GrantAppPermissionsSchema,
  OpenAppViewSchema,
} from '../model/apps.js';
import {
  InstallIdSchema,
  InstallPreviewSchema,
  InstallRequestSchema,
  PendingInstallSchema,
  PrepareRegistryInstallSchema,
  RegistryPageSchema,
  SearchRegistrySchema,
} from '../model/registry.js';
import {
  EVENT_NAMES,
  REQUEST_NAMES,
  eventChannel,
  isEventName,
  isRequestName,
  requestChannel,
} from './names.js';
import type { EventName, RequestName } from './names.js';

/**
 * THE IPC contract. Every request the renderer may make and every event the
 * host pushes is declared here once; the preload's `window.host`, the
 * Electron adapter, the headless WebSocket adapter and the renderer's bridge
 * are all derived from these two tables. Adding a request means adding a row
 * here and a handler in the host core, nothing else.
 */

const none = z.object({}).strict();
const byName = z.object({ name: ServerNameSchema }).strict();
const CallIdSchema = z
  .string()
  .min(8)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/);
const byConversation = z.object({ id: ConversationIdSchema }).strict();
const inConversation = z.object({ conversationId: ConversationIdSchema }).strict();
const resourceOf = z.object({ server: ServerNameSchema, uri: ResourceUriSchema }).strict();
const rootsResult = z.array(RootInfoSchema);
/** Limit of a tool call's arguments (JSON text), in characters. */
export const MAX_ARGUMENTS_CHARS = 8 * 1024 * 1024;

export const requests = {
  getAppInfo: { params: none, result: AppInfoSchema },
  getConfigState: { params: none, result: ConfigStateSchema },
  /** Re-read the configuration file (after the user fixed or edited it). */
  reloadConfig: { params: none, result: ConfigStateSchema },
  listServers: { params: none, result: z.array(ServerSnapshotSchema) },
  /** Add a stdio server to the configuration and start it. */
  addServer: { params: StdioServerInputSchema.strict(), result: ServerSnapshotSchema },
  /** Remove a server from the configuration; its process is ended first. */
  removeServer: { params: byName, result: z.null() },
  startServer: { params: byName, result: ServerSnapshotSchema },
  stopServer: { params: byName, result: ServerSnapshotSchema },
  /** Stop and start again; clears the crash count (also after automatic restarts gave up). */
  restartServer: { params: byName, result: ServerSnapshotSchema },
  /**
   * OAuth sign-in: opens the authorization page in the system browser and
   * resolves at once with the server in state "waiting"; the outcome arrives
   * as serverChanged events (connected, or "sign-in-required" with a message).
   */
  signInServer: { params: byName, result: ServerSnapshotSchema },
  /** Stops waiting for the browser; the server stays "sign-in-required". */
  cancelSignIn: { params: byName, result: ServerSnapshotSchema },
  /** Revokes the tokens where the authorization server offers revocation, then forgets them. */
  signOutServer: { params: byName, result: ServerSnapshotSchema },
  /**
   * Call a tool with arguments given as JSON text. The host parses the text
   * and checks it against the tool's inputSchema before anything is sent.
   */
  callTool: {
    params: z
      .object({
        server: ServerNameSchema,
        tool: z.string().min(1).max(256),
        /** At most 8 Mi characters: at most 24 MiB encoded, so a valid call always fits in a frame. */
        argumentsJson: z
          .string()
          .max(MAX_ARGUMENTS_CHARS, 'The arguments are too large: at most 8 MB of JSON can be sent'),
        /** Caller-chosen id: enables cancelToolCall and toolCallProgress events for this call. */
        callId: CallIdSchema.optional(),
      })
      .strict(),
    result: ToolCallResultSchema,
  },

  // Logs and configuration (issue 3, part C).
  /** A server's kept log (stderr, notifications/message, lifecycle), oldest first. */
  getServerLogs: { params: byName, result: ServerLogsSchema },
  /** logging/setLevel; refused when the server did not declare the logging capability. */
  setLogLevel: { params: byName.extend({ level: LogLevelSchema }).strict(), result: z.null() },
  /** The stored entry of one server, as the edit form shows it. */
  getServerInput: { params: byName, result: ServerInputSchema },
  /**
   * Adds (no `originalName`) or replaces a server (stdio or remote) and
   * (re)starts it; other keys of a replaced entry are kept.
   */
  saveServer: {
    params: z.object({ originalName: ServerNameSchema.optional(), input: ServerInputSchema }).strict(),
    result: ServerSnapshotSchema,
  },
  /** Sets `disabled`: a disabled server is stopped and not started at launch. */
  setServerEnabled: {
    params: byName.extend({ enabled: z.boolean() }).strict(),
    result: ServerSnapshotSchema,
  },
  /** Adds a tool to (or removes it from) `disabledTools`. */
  setToolEnabled: {
    params: byName.extend({ tool: z.string().min(1).max(256), enabled: z.boolean() }).strict(),
    result: ServerSnapshotSchema,
  },
  /** The configuration file's text, exactly as stored. */
  getRawConfig: { params: none, result: z.object({ path: z.string(), text: z.string() }) },
  /** Validates and writes the whole file, then reloads and reconnects; invalid text is never written. */
  saveRawConfig: {
    params: z.object({ text: z.string().max(4 * 1024 * 1024) }).strict(),
    result: ConfigStateSchema,
  },
  /** The other hosts' configuration files the host looked for, and whether each exists. */
  listImportLocations: { params: none, result: z.array(ImportLocationSchema) },
  /** What would be imported from a known file (read by the host) or from pasted text. */
  previewImport: {
    params: z
      .object({
        source: ImportSourceSchema,
        text: z
          .string()
          .max(1024 * 1024)
          .optional(),
      })
      .strict(),
    result: ImportPreviewSchema,
  },
  /** Imports the chosen servers (renamed or skipped), asking before any stdio server is started. */
  importServers: { params: ImportRequestSchema, result: ImportResultSchema },
  // MCP bundles (.mcpb), issue 12. A bundle reaches the host as an upload or through the host's own
  // file dialog, never as a path; the host keeps it behind a token until it is installed or discarded.
  /** One piece of a bundle the page uploads (in order; the first without an uploadId). */
  uploadBundleChunk: {
    params: BundleUploadChunkSchema,
    result: z.object({ uploadId: BundleTokenSchema, received: z.number().int() }),
  },
  /** Opens an uploaded bundle, or one picked in the host's file dialog (null when cancelled), and shows it. */
  previewBundle: {
    params: z.object({ source: BundleSourceSchema }).strict(),
    result: BundlePreviewSchema.nullable(),
  },
  /** The host's folder or file dialog for a setting of an open bundle; null when cancelled or unavailable. */
  pickBundlePath: {
    params: z.object({ token: BundleTokenSchema, key: BundleFieldKeySchema }).strict(),
    result: z.object({ path: z.string().nullable() }),
  },
  /** Installs (or updates) an open bundle with the person's settings, after the launch confirmation. */
  installBundle: { params: BundleInstallSchema, result: ServerSnapshotSchema },
  /** Closes an open bundle without installing it. */
  discardBundle: { params: z.object({ token: BundleTokenSchema }).strict(), result: z.null() },
  /** Removes a server installed from a bundle: its entry, its files and its stored secrets. */
  uninstallBundle: { params: byName, result: z.null() },
  /**
   * Cancel a running call (the server gets notifications/cancelled; the call
   * fails with code "cancelled"). False when it had already finished.
   */
  cancelToolCall: { params: z.object({ callId: CallIdSchema }).strict(), result: z.boolean() },
  // Chat with Claude (issue 4). The API key goes in, never out: settings report only "set" and a hint.
  getSettings: { params: none, result: SettingsSchema },
  updateSettings: { params: UpdateSettingsSchema, result: SettingsSchema },
  setApiKey: {
    params: z.object({ key: z.string().trim().min(1).max(1024) }).strict(),
    result: SettingsSchema,
  },
  clearApiKey: { params: none, result: SettingsSchema },
  /** Models from the models API when reachable, else a default list (source tells which). */
  listModels: { params: none, result: ModelListSchema },
  /** Newest first; with a query, only conversations whose title or messages match (full-text). */
  listConversations: {
    params: z.object({ query: z.string().max(500).optional() }).strict(),
    result: z.array(ConversationSummarySchema),
  },
  createConversation: {
    params: z.object({ title: z.string().trim().max(200).optional() }).strict(),
    result: ConversationSummarySchema,
  },
  renameConversation: {
    params: z.object({ id: ConversationIdSchema, title: z.string().trim().min(1).max(200) }).strict(),
    result: ConversationSummarySchema,
  },
  /** Stops its turn, if any, then deletes the conversation and its messages. */
  deleteConversation: { params: byConversation, result: z.null() },
  getConversation: { params: byConversation, result: ConversationDetailSchema },
  /**
   * Commits the user message and starts a turn; the answer streams as events
   * (turnState, chatDelta, chatMessage, toolCallUpdate, usage). Fails with
   * code "no_api_key" when no key is set, "conflict" when a turn is running.
   */
  sendMessage: { params: SendMessageSchema, result: TurnStartedSchema },
  /** Aborts the stream and cancels in-flight tool calls; the partial answer is dropped. */
  stopTurn: { params: inConversation, result: z.null() },
  /** Runs the model again from the stored history (after an error or a stop). */
  retryTurn: { params: inConversation, result: TurnStartedSchema },
  /**
   * Every consent rule (this conversation, this tool, the whole server, the
   * read-only opt-in), each with the server identity it is bound to, and the
   * store's problem when no rule can be trusted.
   */
  listPolicies: { params: none, result: ConsentRulesSchema },
  revokePolicy: { params: z.object({ id: z.string().min(1).max(64) }).strict(), result: z.null() },
  /** Consent decisions for tool calls, newest first. */
  listAudit: {
    params: z
      .object({
        limit: z.number().int().min(1).max(1000).default(200),
        beforeId: z.number().int().optional(),
      })
      .strict(),
    result: z.array(AuditEntrySchema),
  },
  /**
   * Turns a server-wide rule on or off: "trust this server" (all its tools) or
   * "run the tools it marks read-only without asking". The host binds it to
   * the server's current identity; off revokes that scope whatever it is bound to.
   */
  setServerTrust: {
    params: z
      .object({ server: ServerNameSchema, scope: ServerTrustScopeSchema, enabled: z.boolean() })
      .strict(),
    result: ConsentRulesSchema,
  },
  /** The whole result of a tool call whose chat block is truncated. */
  getToolResult: {
    params: z.object({ toolUseId: z.string().min(1).max(256) }).strict(),
    result: FullToolResultSchema,
  },
  // Chat that scales (issue 14): branches, per-conversation settings, export, pinned tools.
  /** Sends an earlier user message again with new text; the old version stays on its own branch. */
  editMessage: { params: EditMessageSchema, result: TurnStartedSchema },
  /** Answers the last user message again; the old answer stays on its own branch. */
  regenerateAnswer: { params: inConversation, result: TurnStartedSchema },
  /** Shows the branch a message is on (at its newest message). */
  switchBranch: {
    params: z.object({ conversationId: ConversationIdSchema, messageId: z.string().min(1).max(64) }).strict(),
    result: ConversationDetailSchema,
  },
  /** Model, system prompt, thinking and active servers/tools of one conversation (replaces them). */
  setConversationSettings: {
    params: z.object({ id: ConversationIdSchema, settings: ConversationSettingsSchema }).strict(),
    result: ConversationSummarySchema,
  },
  /**
   * Writes the conversation (the branch shown) as Markdown or JSON into a
   * folder on the host's machine (default: the Downloads folder, else home).
   */
  exportConversation: {
    params: z
      .object({
        id: ConversationIdSchema,
        format: z.enum(['markdown', 'json']),
        folder: z.string().trim().max(4096).optional(),
      })
      .strict(),
    result: z.object({ path: z.string() }),
  },
  /** Pins a tool for the chat (its definition is always sent, never deferred by tool search). */
  setToolPinned: {
    params: PinnedToolSchema.extend({ pinned: z.boolean() }).strict(),
    result: SettingsSchema,
  },
  /** A server's resources and templates (every page, from the host's catalog; no request to the server). */
  listResources: { params: z.object({ server: ServerNameSchema }).strict(), result: ResourceListingSchema },
  /** The prompts of every connected server that offers them. */
  listPrompts: { params: none, result: z.array(ServerPromptsSchema) },
  /** Read a resource by URI, or through a template with its variables filled in. */
  readResource: {
    params: z.object({ server: ServerNameSchema, target: ResourceTargetSchema }).strict(),
    result: ResourceReadResultSchema,
  },
  /** Only for servers that declared `resources.subscribe`; updates arrive as `resourceUpdated`. */
  subscribeResource: { params: resourceOf, result: z.null() },
  unsubscribeResource: { params: resourceOf, result: z.null() },
  /** Suggestions for a prompt argument or template variable (servers that declared `completions`). */
  complete: { params: CompleteParamsSchema, result: CompletionResultSchema },
  getPrompt: {
    params: z
      .object({
        server: ServerNameSchema,
        name: z.string().min(1).max(256),
        arguments: z.record(z.string().max(256), z.string().max(65_536)).default({}),
      })
      .strict(),
    result: PromptResultSchema,
  },
  /** The folders (roots) a server may see, from its config entry. */
  listRoots: { params: z.object({ server: ServerNameSchema }).strict(), result: rootsResult },
  /** Add a folder typed by the person: absolute, existing directory; stored as a file:// URI. */
  addRoot: {
    params: z.object({ server: ServerNameSchema, path: z.string().max(4096) }).strict(),
    result: rootsResult,
  },
  /** Let the person pick a folder with the system dialog (Electron); picked is false when cancelled or unavailable. */
  pickRoot: {
    params: z.object({ server: ServerNameSchema }).strict(),
    result: z.object({ picked: z.boolean(), roots: rootsResult }),
  },
  removeRoot: { params: resourceOf, result: rootsResult },
  /** The consent requests waiting for an answer, oldest first (after a reconnect). */
  listConsents: { params: none, result: z.array(ConsentRequestSchema) },
  /**
   * The person's decision on a consent request the host issued. The host
   * checks the id (issued, still pending) and the answer's shape for its kind.
   */
  answerConsent: {
    params: z.object({ id: ConsentIdSchema, answer: z.unknown() }).strict(),
    result: z.null(),
  },
  // MCP Apps (issue 11). A view is prepared by the host; every later request names its viewId,
  // and the host applies the view's server, the tool's visibility and consent.
  /** Reads the tool's ui:// resource and prepares a sandboxed view of it. */
  openAppView: { params: OpenAppViewSchema, result: AppViewSchema },
  /** The view went away (its frame was torn down). */
  closeAppView: { params: CloseAppViewSchema, result: z.null() },
  /** The person's choice among the permissions the app declared. */
  grantAppPermissions: { params: GrantAppPermissionsSchema, result: z.array(AppPermissionSchema) },
  /** tools/call from an app: its own server, visibility "app", through consent. */
  appCallTool: { params: AppCallToolSchema, result: AppToolResultSchema },
  /** resources/read from an app, on its own server only. */
  appReadResource: { params: AppReadResourceSchema, result: AppResourceResultSchema },
  /** ui/open-link: the system browser, after consent showing the full URL. */
  appOpenLink: { params: AppOpenLinkSchema, result: z.null() },
  /** notifications/message from an app, into its server's log. */
  appLog: { params: AppLogSchema, result: z.null() },
  /** ui/update-model-context: kept for the conversation's next user message. */
  appUpdateModelContext: { params: AppModelContextSchema, result: z.null() },
  // Install from the MCP registry and install links (issue 12). The host prepares each install
  // from what it fetched or received itself; the renderer names it by id and fills in values.
  /** One page of the registry's latest entries matching the query (the registry URL is a setting). */
  searchRegistry: { params: SearchRegistrySchema, result: RegistryPageSchema },
  /** Fetches one entry and holds it as a pending install: its options, values to ask, runtimes found. */
  prepareRegistryInstall: { params: PrepareRegistryInstallSchema, result: PendingInstallSchema },
  /** Installs received from links and not yet done or closed (a page that connects late shows them). */
  listPendingInstalls: { params: none, result: z.array(PendingInstallSchema) },
  /** The exact command or URL installing with these values would write and run (secrets masked). */
  previewInstall: { params: InstallRequestSchema, result: InstallPreviewSchema },
  /** Stores the secrets, saves the entry (after the launch confirmation) and starts it. */
  installServer: { params: InstallRequestSchema, result: ServerSnapshotSchema },
  /** The person closed a pending install without installing. */
  dismissInstall: { params: z.object({ id: InstallIdSchema }).strict(), result: z.null() },
} as const;

export const events = {
  /** A server's state changed; the snapshot replaces the previous one. */
  serverChanged: ServerSnapshotSchema,
  /** A server was removed from the configuration. */
  serverRemoved: z.object({ name: z.string() }),
  /** The configuration file was (re)loaded, or failed to load. */
  configChanged: ConfigStateSchema,
  /** New log entries of a server, batched. */
  serverLog: ServerLogBatchSchema,
  /** A running call (started with a callId) reported progress. */
  toolCallProgress: ToolCallProgressSchema,
  /** Chat (issue 4): settings changed (key set/cleared, model, base URL). */
  settingsChanged: SettingsSchema,
  /** A conversation was created, renamed, got a message, or changed usage. */
  conversationChanged: ConversationSummarySchema,
  conversationDeleted: z.object({ id: z.string() }),
  /** Streaming text of an assistant message, batched (about every 16 ms). */
  chatDelta: ChatDeltaEventSchema,
  /** A message was committed to the store (user, assistant, tool results, notice). */
  chatMessage: ChatMessageEventSchema,
  toolCallUpdate: ToolCallUpdateEventSchema,
  turnState: TurnStateEventSchema,
  usage: UsageEventSchema,
  /** A subscribed resource changed on its server. */
  resourceUpdated: ResourceUpdatedSchema,
  /** A decision is needed: show it. */
  consentRequested: ConsentRequestSchema,
  /** A consent request was answered or withdrawn: hide it. */
  consentResolved: ConsentResolvedSchema,
  /** A consent rule was made or revoked: the whole list, as listPolicies returns it. */
  policiesChanged: ConsentRulesSchema,
  /** An install link arrived: show it for the person to confirm (or close). */
  installRequested: PendingInstallSchema,
  /** A pending install was done or closed (in this page or another): hide it. */
  installResolved: z.object({ id: z.string() }),
} as const;

export type Requests = typeof requests;
export type Events = typeof events;
export type { RequestName, EventName };

// The schema-free name lists (names.ts) must match these tables exactly.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Fails to compile when names.ts and the tables disagree. */
export const NAMES_MATCH_CONTRACT: [Same<keyof Requests, RequestName>, Same<keyof Events, EventName>] = [
  true,
  true,
];

/** What a caller passes (before defaults are applied). */
export type RequestParams<K extends RequestName> = z.input<Requests[K]['params']>;
/** What a handler receives (after validation and defaults). */
export type ParsedParams<K extends RequestName> = z.output<Requests[K]['params']>;
export type RequestResult<K extends RequestName> = z.output<Requests[K]['result']>;
export type EventPayload<E extends EventName> = z.output<Events[E]>;

export const requestNames: readonly RequestName[] = REQUEST_NAMES;
export const eventNames: readonly EventName[] = EVENT_NAMES;

export { requestChannel, eventChannel, isRequestName, isEventName };
