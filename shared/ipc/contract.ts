import { z } from 'zod';
import { ServerSnapshotSchema, ToolCallProgressSchema } from '../model/server.js';
import { ConfigStateSchema } from '../model/app.js';
import { ServerLogBatchSchema } from '../model/logs.js';
import { ConsentRequestSchema, ConsentResolvedSchema } from '../model/consent.js';
import {
  ChatDeltaEventSchema,
  ChatMessageEventSchema,
  ConversationSummarySchema,
  ToolCallUpdateEventSchema,
  TurnStateEventSchema,
  UsageEventSchema,
} from '../model/chat.js';
import { ConsentRulesSchema } from '../model/consent-rules.js';
import { SettingsSchema } from '../model/settings.js';
import { ResourceUpdatedSchema } from '../model/features.js';
import { PendingInstallSchema } from '../model/registry.js';
import { appRequests } from './requests/app.js';
import { appsRequests } from './requests/apps.js';
import { bundlesRequests } from './requests/bundles.js';
import { configRequests } from './requests/config.js';
import { consentRequests } from './requests/consent.js';
import { conversationsRequests } from './requests/conversations.js';
import { featuresRequests } from './requests/features.js';
import { registryRequests } from './requests/registry.js';
import { serversRequests } from './requests/servers.js';
import { settingsRequests } from './requests/settings.js';
import { tasksRequests } from './requests/tasks.js';
import { TaskInfoSchema } from '../model/tasks.js';

export { MAX_ARGUMENTS_CHARS } from './requests/common.js';
import { EVENT_NAMES, REQUEST_NAMES, eventChannel, requestChannel } from './names.js';
import type { EventName as ListedEvent, RequestName as ListedRequest } from './names.js';

export { eventChannel, requestChannel };

/**
 * THE IPC contract. Every request the renderer may make and every event the
 * host pushes is declared here once, the requests grouped by domain (one file
 * each under requests/, mirrored by one handler file each in the host core's
 * handlers/). The preload's `window.host`, the Electron adapter, the headless
 * WebSocket adapter and the renderer's bridge are all derived from these
 * tables: adding a request means adding a row to its domain's table and a
 * handler to its domain's handler file, and the compiler names both.
 */

/** The contract's requests by domain; no name may appear in two domains. */
export const domains = {
  app: appRequests,
  servers: serversRequests,
  config: configRequests,
  bundles: bundlesRequests,
  registry: registryRequests,
  settings: settingsRequests,
  conversations: conversationsRequests,
  consent: consentRequests,
  features: featuresRequests,
  apps: appsRequests,
  tasks: tasksRequests,
} as const;

export const requests = {
  ...appRequests,
  ...serversRequests,
  ...configRequests,
  ...bundlesRequests,
  ...registryRequests,
  ...settingsRequests,
  ...conversationsRequests,
  ...consentRequests,
  ...featuresRequests,
  ...appsRequests,
  ...tasksRequests,
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
  /**
   * Tasks that started, changed state or message, or ended, each as it is now:
   * a new status alone and at once, new messages of all tasks together at most
   * four times a second.
   */
  tasksChanged: z.array(TaskInfoSchema),
} as const;

export type Requests = typeof requests;
export type Events = typeof events;
export type Domains = typeof domains;
export type DomainName = keyof Domains;
export type RequestName = keyof Requests;
export type EventName = keyof Events;

type KeysOfAny<D extends DomainName> = D extends DomainName ? keyof Domains[D] : never;
/** The request names two domains both declare (a spread would silently keep only one of them). */
type Clash = { [D in DomainName]: keyof Domains[D] & KeysOfAny<Exclude<DomainName, D>> }[DomainName];
/** Fails to compile, naming the request, when two domains declare the same one. */
export const DOMAINS_ARE_DISJOINT: [Clash] extends [never] ? true : Clash = true;

/** What a caller passes (before defaults are applied). */
export type RequestParams<K extends RequestName> = z.input<Requests[K]['params']>;
/** What a handler receives (after validation and defaults). */
export type ParsedParams<K extends RequestName> = z.output<Requests[K]['params']>;
export type RequestResult<K extends RequestName> = z.output<Requests[K]['result']>;
export type EventPayload<E extends EventName> = z.output<Events[E]>;

// The schema-free name lists (names.ts) must match these tables exactly.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Fails to compile when names.ts and the tables disagree. */
export const NAMES_MATCH_CONTRACT: [Same<RequestName, ListedRequest>, Same<EventName, ListedEvent>] = [
  true,
  true,
];

/** Every request name. */
export const requestNames: readonly RequestName[] = REQUEST_NAMES;
/** Every event name. */
export const eventNames: readonly EventName[] = EVENT_NAMES;

/** Whether a name (from a wire or a caller) is a request of the contract. */
export const isRequestName = (name: unknown): name is RequestName =>
  typeof name === 'string' && Object.hasOwn(requests, name);
/** Whether a name is an event of the contract. */
export const isEventName = (name: unknown): name is EventName =>
  typeof name === 'string' && Object.hasOwn(events, name);
