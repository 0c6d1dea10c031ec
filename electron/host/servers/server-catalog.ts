import { METHOD_NOT_FOUND, ProtocolError } from '@modelcontextprotocol/client';
import type { CacheMode, Client, ListChangedHandlers } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import type { Skill } from '@modelcontextprotocol/client/ext/skills';
import type { z } from 'zod';
import {
  PromptInfoSchema,
  ResourceInfoSchema,
  ResourceTemplateInfoSchema,
  ToolInfoSchema,
} from '../../../shared/model/server.js';
import type {
  PromptInfo,
  ResourceInfo,
  ResourceTemplateInfo,
  ToolInfo,
} from '../../../shared/model/server.js';
import { toolDefinitionsOf } from '../../../shared/model/tool-pins.js';
import type { ToolDefinition } from '../../../shared/model/tool-pins.js';
import { describeError, oneLine } from '../errors.js';
import { hasCapability } from './capabilities.js';

export type CatalogList = 'tools' | 'resources' | 'resourceTemplates' | 'prompts';

export interface CatalogCounts {
  tools: number;
  resources: number;
  resourceTemplates: number;
  prompts: number;
}

export interface CatalogOptions {
  /** Per-request time limit of the list requests. */
  timeoutMs: number;
  /** At most this many tools are kept (default MAX_TOOLS_PER_SERVER); the rest are counted and skipped. */
  maxTools?: number;
  /** A line for the server's log: malformed entries skipped, a refresh that failed. */
  onWarning: (line: string) => void;
  /** Every tool list kept (first load and each refresh), as definitions to compare with their pins. */
  onTools?: ((definitions: readonly ToolDefinition[]) => void) | undefined;
}

/**
 * Tools kept per server. Real servers list tens, the largest a few hundred;
 * past this a server is misbehaving, and offering all of it would swamp the
 * model (the API's tool search takes 10,000 tools in all) and the UI.
 */
export const MAX_TOOLS_PER_SERVER = 1000;

/** The server listed more tools than the host keeps. */
export interface ToolsCapped {
  listed: number;
  kept: number;
}

/** Waits this long after a list_changed so a burst of them costs one refresh. */
const LIST_CHANGED_DEBOUNCE_MS = 50;

/** A list whose `ttlMs` runs out is fetched again, but never more often than this. */
export const MIN_TTL_REFRESH_MS = 1000;
/** The SDK honours a `ttlMs` up to a day; so does the refresh timer. */
const MAX_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * What one connected server offers: its tools, resources, resource templates
 * and prompts. Only the lists whose capability the server declared are
 * requested; each is fetched across every page (the SDK's no-cursor list
 * calls walk `nextCursor` to the end) and refreshed when the server sends the
 * matching `notifications/…/list_changed` (on a 2026-07-28 connection the SDK
 * opens the `subscriptions/listen` stream that carries them). Entries are
 * parsed with the shared zod schemas; malformed ones are skipped and logged,
 * so the UI only ever sees shapes it understands.
 *
 * Cache hints (2026-07-28, `ttlMs`): the first load of a list takes a
 * still-fresh copy from the client's response cache (which outlives a
 * reconnect, so a restart within the ttl lists nothing again), a
 * list_changed always fetches, and a list whose ttl runs out is fetched
 * again then (at most once a second), so what the model and the UI see is
 * never older than the server allows. No `ttlMs` (or 0) means "no promise":
 * the list is fetched at every connect and kept current by list_changed.
 *
 * One catalog belongs to one connection attempt: create a new one per
 * connect, and `dispose()` it when the connection ends so a late refresh of
 * an old client is ignored.
 */
export class ServerCatalog {
  private client: Client | undefined;
  private disposed = false;
  private readonly listeners = new Set<(list: CatalogList) => void>();
  private toolList: ToolInfo[] = [];
  private toolsByName = new Map<string, ToolInfo>();
  private definitionList: ToolDefinition[] = [];
  private capped: ToolsCapped | undefined;
  private resourceList: ResourceInfo[] = [];
  private templateList: ResourceTemplateInfo[] = [];
  private promptList: PromptInfo[] = [];
  private skillList: Skill[] = [];
  /** Refreshes scheduled for when a list's ttlMs runs out. */
  private readonly expiryTimers = new Map<CatalogList, NodeJS.Timeout>();

  constructor(
    readonly serverName: string,
    private readonly options: CatalogOptions,
  ) {}

  /**
   * The `listChanged` option for the SDK `Client` constructor. The SDK only
   * installs a handler for a list whose `listChanged` the server declared;
   * the refetch itself is ours (autoRefresh off) so that a resources change
   * also refreshes the templates, and every result goes through our schemas.
   */
  listChangedHandlers(): ListChangedHandlers {
    const handler = (refresh: () => Promise<void>) => ({
      autoRefresh: false,
      debounceMs: LIST_CHANGED_DEBOUNCE_MS,
      onChanged: () => {
        // Fire-and-forget on purpose: a notification has no caller to answer;
        // refresh() reports its own failures as warnings.
        void refresh();
      },
    });
    return {
      tools: handler(() => this.refresh('tools')),
      resources: handler(async () => {
        await Promise.all([this.refresh('resources'), this.refresh('resourceTemplates')]);
      }),
      prompts: handler(() => this.refresh('prompts')),
    };
  }

  /**
   * Fetches every declared list in full (a copy still fresh by its ttlMs may
   * come from the response cache). Rejects (with the SDK error) if a
   * declared list fails.
   */
  async load(client: Client): Promise<void> {
    this.client = client;
    const caps = client.getServerCapabilities();
    await Promise.all([
      hasCapability(caps, 'tools') ? this.fetch('tools', 'use') : undefined,
      hasCapability(caps, 'resources') ? this.fetch('resources', 'use') : undefined,
      hasCapability(caps, 'resources') ? this.fetchTemplatesTolerantly() : undefined,
      hasCapability(caps, 'prompts') ? this.fetch('prompts', 'use') : undefined,
      this.fetchSkills(client),
    ]);
  }

  /**
   * The skills the server offers (the Skills extension, SEP-2640): only the
   * entries of `skills/list`, never a file; a skill's files are read when it
   * is loaded (features/skills.ts), checked against these entries. Invalid
   * entries are skipped and logged. An extension that fails must not fail
   * the connection: a warning, and no skills.
   */
  private async fetchSkills(client: Client): Promise<void> {
    const skills = new SkillsClient(client, { skipInvalid: true });
    if (!skills.supported) return;
    try {
      const listing = await skills.list(undefined, { timeout: this.options.timeoutMs });
      if (!this.isLive()) return;
      for (const entry of listing.invalid) {
        this.options.onWarning(
          `[host] ignored an invalid skill entry${entry.uri === undefined ? '' : ` ${oneLine(entry.uri, 120)}`}: ${oneLine(entry.reason, 200)}`,
        );
      }
      this.skillList = listing.skills;
    } catch (error) {
      if (this.isLive()) this.options.onWarning(`[host] listing skills failed: ${describeError(error)}`);
    }
  }

  get tools(): readonly ToolInfo[] {
    return this.toolList;
  }

  /** A tool by name, in constant time (a server may list thousands). */
  tool(name: string): ToolInfo | undefined {
    return this.toolsByName.get(name);
  }

  /** The kept tools' definitions as listed (with output schemas), for pinning. */
  get toolDefinitions(): readonly ToolDefinition[] {
    return this.definitionList;
  }

  /** Set when the server listed more tools than the host keeps. */
  get toolsCapped(): ToolsCapped | undefined {
    return this.capped;
  }
  get resources(): readonly ResourceInfo[] {
    return this.resourceList;
  }
  get resourceTemplates(): readonly ResourceTemplateInfo[] {
    return this.templateList;
  }
  get prompts(): readonly PromptInfo[] {
    return this.promptList;
  }
  /** Skill entries (SEP-2640), as the server listed them. */
  get skills(): readonly Skill[] {
    return this.skillList;
  }

  counts(): CatalogCounts {
    return {
      tools: this.toolList.length,
      resources: this.resourceList.length,
      resourceTemplates: this.templateList.length,
      prompts: this.promptList.length,
    };
  }

  /** Calls `listener` after a list was replaced by a refresh. Returns the unsubscribe function. */
  onChange(listener: (list: CatalogList) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Refetches one list now (also what a list_changed notification does). Never rejects. */
  async refresh(list: CatalogList): Promise<void> {
    if (this.disposed || !this.client) return;
    try {
      await this.fetch(list, 'refresh');
    } catch (error) {
      if (this.isLive()) {
        this.options.onWarning(`[host] refreshing ${LIST_METHOD[list]} failed: ${describeError(error)}`);
      }
      return;
    }
    if (!this.isLive()) return;
    for (const listener of this.listeners) listener(list);
  }

  /** Ends this catalog: later refreshes are ignored and listeners dropped. */
  dispose(): void {
    this.disposed = true;
    this.client = undefined;
    this.listeners.clear();
    for (const timer of this.expiryTimers.values()) clearTimeout(timer);
    this.expiryTimers.clear();
  }

  /** A method rather than a field read: the answer changes across awaits. */
  private isLive(): boolean {
    return !this.disposed;
  }

  private async fetch(list: CatalogList, cacheMode: CacheMode): Promise<void> {
    const client = this.client;
    if (!client) return;
    const options = { timeout: this.options.timeoutMs, cacheMode };
    switch (list) {
      case 'tools': {
        const result = await client.listTools(undefined, options);
        if (!this.isLive()) return;
        this.keepTools(result.tools);
        this.refreshWhenStale(list, result);
        return;
      }
      case 'resources': {
        const result = await client.listResources(undefined, options);
        if (!this.isLive()) return;
        this.resourceList = this.parse(result.resources, ResourceInfoSchema, 'resource');
        this.refreshWhenStale(list, result);
        return;
      }
      case 'resourceTemplates': {
        const result = await client.listResourceTemplates(undefined, options);
        if (!this.isLive()) return;
        this.templateList = this.parse(
          result.resourceTemplates,
          ResourceTemplateInfoSchema,
          'resource template',
        );
        this.refreshWhenStale(list, result);
        return;
      }
      case 'prompts': {
        const result = await client.listPrompts(undefined, options);
        if (!this.isLive()) return;
        this.promptList = this.parse(result.prompts, PromptInfoSchema, 'prompt');
        this.refreshWhenStale(list, result);
        return;
      }
    }
  }

  /**
   * Schedules the next fetch of `list` for when the server's `ttlMs` (a
   * field of the list result from 2026-07-28 on) runs out. A copy served
   * from the cache carries its original ttl, so the timer may fire a little
   * late for it, never early.
   */
  private refreshWhenStale(list: CatalogList, result: object): void {
    clearTimeout(this.expiryTimers.get(list));
    this.expiryTimers.delete(list);
    const ttl = 'ttlMs' in result ? result.ttlMs : undefined;
    if (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl <= 0) return;
    const timer = setTimeout(
      () => {
        this.expiryTimers.delete(list);
        // Fire-and-forget: refresh() reports its own failures as warnings.
        void this.refresh(list);
      },
      Math.min(Math.max(ttl, MIN_TTL_REFRESH_MS), MAX_TTL_MS),
    );
    // A scheduled refresh never keeps the process alive.
    timer.unref();
    this.expiryTimers.set(list, timer);
  }

  /**
   * Templates share the `resources` capability, but many servers that list
   * resources never implemented `resources/templates/list`; "method not
   * found" there means "no templates", not a broken server.
   */
  private async fetchTemplatesTolerantly(): Promise<void> {
    try {
      await this.fetch('resourceTemplates', 'use');
    } catch (error) {
      if (error instanceof ProtocolError && error.code === METHOD_NOT_FOUND) {
        this.templateList = [];
        return;
      }
      throw error;
    }
  }

  /**
   * Keeps the first `maxTools` well-formed tools, in the server's order, with
   * an index by name (the first of two tools with one name wins, as a call by
   * that name can only reach one). A server that lists more is told about in
   * its log and in its snapshot.
   */
  private keepTools(tools: readonly unknown[]): void {
    const max = this.options.maxTools ?? MAX_TOOLS_PER_SERVER;
    const kept = this.parse(tools, ToolInfoSchema, 'tool', max);
    const byName = new Map<string, ToolInfo>();
    const unique: ToolInfo[] = [];
    for (const tool of kept) {
      if (byName.has(tool.name)) {
        this.options.onWarning(`[host] ignored a second tool named "${oneLine(tool.name, 80)}"`);
        continue;
      }
      byName.set(tool.name, tool);
      unique.push(tool);
    }
    this.toolList = unique;
    this.toolsByName = byName;
    this.definitionList = toolDefinitionsOf(tools, (name) => byName.has(name));
    this.options.onTools?.(this.definitionList);
    this.capped = tools.length > max ? { listed: tools.length, kept: unique.length } : undefined;
    if (this.capped) {
      this.options.onWarning(
        `[host] the server lists ${tools.length.toLocaleString('en-US')} tools; only the first ${max.toLocaleString('en-US')} are kept (the host's limit per server)`,
      );
    }
  }

  private parse<S extends z.ZodType>(
    items: readonly unknown[],
    schema: S,
    what: string,
    max = Number.POSITIVE_INFINITY,
  ): z.infer<S>[] {
    const parsed: z.infer<S>[] = [];
    for (const item of items) {
      if (parsed.length >= max) break;
      const result = schema.safeParse(item);
      if (result.success) parsed.push(result.data);
      else
        this.options.onWarning(`[host] ignored a malformed ${what}: ${oneLine(JSON.stringify(item), 200)}`);
    }
    return parsed;
  }
}

const LIST_METHOD: Record<CatalogList, string> = {
  tools: 'tools/list',
  resources: 'resources/list',
  resourceTemplates: 'resources/templates/list',
  prompts: 'prompts/list',
};
