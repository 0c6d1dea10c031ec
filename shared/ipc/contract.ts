import { z } from 'zod';
import { StdioServerInputSchema, ServerNameSchema } from '../model/config.js';
import { ServerSnapshotSchema, ToolCallResultSchema } from '../model/server.js';
import { AppInfoSchema, ConfigStateSchema } from '../model/app.js';
import { ConsentIdSchema, ConsentRequestSchema, ConsentResolvedSchema } from '../model/consent.js';
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
const resourceOf = z.object({ server: ServerNameSchema, uri: ResourceUriSchema }).strict();
const rootsResult = z.array(RootInfoSchema);

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
  /**
   * Call a tool with arguments given as JSON text. The host parses the text
   * and checks it against the tool's inputSchema before anything is sent.
   */
  callTool: {
    params: z
      .object({
        server: ServerNameSchema,
        tool: z.string().min(1).max(256),
        argumentsJson: z.string().max(16 * 1024 * 1024),
      })
      .strict(),
    result: ToolCallResultSchema,
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
} as const;

export const events = {
  /** A server's state changed; the snapshot replaces the previous one. */
  serverChanged: ServerSnapshotSchema,
  /** A server was removed from the configuration. */
  serverRemoved: z.object({ name: z.string() }),
  /** The configuration file was (re)loaded, or failed to load. */
  configChanged: ConfigStateSchema,
  /** A subscribed resource changed on its server. */
  resourceUpdated: ResourceUpdatedSchema,
  /** A decision is needed: show it. */
  consentRequested: ConsentRequestSchema,
  /** A consent request was answered or withdrawn: hide it. */
  consentResolved: ConsentResolvedSchema,
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
