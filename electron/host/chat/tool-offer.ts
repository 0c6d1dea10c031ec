import { activeToolFilter } from '../../../shared/model/conversation-settings.js';
import type { ConversationSettings } from '../../../shared/model/conversation-settings.js';
import type { ServerSnapshot, ToolInfo } from '../../../shared/model/server.js';
import { visibleToModel } from '../../../shared/model/tool-meta.js';
import type { PinnedTool, ToolSearchSettings } from '../../../shared/model/settings.js';
import { ToolNameTable } from './tool-names.js';
import type { ToolRef } from './tool-names.js';
import type { WireTool } from './wire-types.js';

/** The API's tool search catalog holds at most this many tools. */
export const MAX_SEARCHABLE_TOOLS = 10_000;

/** The tool search tool the host uses: BM25, so Claude searches in plain words. */
export const SEARCH_TOOL = {
  type: 'tool_search_tool_bm25_20251119',
  name: 'tool_search_tool_bm25',
} as const satisfies WireTool;
export const SEARCH_TOOL_NAMES: ReadonlySet<string> = new Set([
  'tool_search_tool_bm25',
  'tool_search_tool_regex',
]);

export interface OfferOptions {
  settings: ToolSearchSettings;
  pinned: readonly PinnedTool[];
  conversation?: ConversationSettings | undefined;
  /** The endpoint (or model) refused tool search: send every definition. */
  searchUnavailable?: boolean;
  /** Tools already called in this conversation: kept loaded, their calls are in the history. */
  used?: ReadonlySet<string>;
  /** Tools (toolKey) whose definition changed since it was pinned, or that are new: their description says so. */
  changed?: ReadonlySet<string>;
}

export interface ToolOffer {
  table: ToolNameTable;
  /** In request order: loaded tools first, then deferred ones, the search tool last. */
  tools: WireTool[];
  /** True when the definitions are deferred and the search tool is sent. */
  search: boolean;
  /** API names of the deferred tools. */
  deferred: ReadonlySet<string>;
  offered: number;
  /** Tools past the API's catalog limit that were left out. */
  leftOut: number;
  /** Bytes of the definitions loaded into the model's context up front, and of all of them. */
  bytes: { upFront: number; all: number };
}

/** Added to the header of a tool whose definition the user has not looked at since it changed. */
export const CHANGED_MARK =
  '; its definition changed since the user approved this server, so every call asks the user first';

/** Tool key for sets: server and tool joined by NUL (neither can contain it). */
export const toolKey = (server: string, tool: string): string => `${server}\u0000${tool}`;

/** A rough token count of JSON text: about four characters per token. */
export const estimateTokens = (bytes: number): number => Math.ceil(bytes / 4);

/**
 * The tools of connected servers this conversation offers, as API
 * definitions (not disabled ones, nor app-only ones). Past the tool search threshold (or always, or never, per the
 * settings) every definition is sent with `defer_loading: true` and the tool
 * search tool comes along, so Claude loads only what it searches for; pinned
 * tools and tools this conversation already called stay loaded. One pass
 * over the tools: nothing here is quadratic in their number.
 */
export function offerTools(servers: readonly ServerSnapshot[], options: OfferOptions): ToolOffer {
  const active = activeToolFilter(options.conversation);
  const offer: { ref: ToolRef; info: ToolInfo }[] = [];
  for (const server of servers) {
    if (server.status !== 'connected') continue;
    for (const info of server.tools) {
      // MCP Apps tools whose visibility lacks "model" are for their app only.
      if (info.disabled === true || !visibleToModel(info) || !active(server.name, info.name)) continue;
      offer.push({ ref: { server: server.name, tool: info.name }, info });
    }
  }
  const pinned = new Set(options.pinned.map((p) => toolKey(p.server, p.tool)));
  const used = options.used ?? new Set<string>();
  const table = new ToolNameTable(offer.map((o) => o.ref));
  const definitions: { def: WireTool & { name: string }; keep: boolean; bytes: number }[] = [];
  let allBytes = 0;
  for (const { ref, info } of offer) {
    const name = table.apiName(ref);
    if (name === undefined) continue;
    const label = info.title ?? info.annotations?.title;
    const mark = options.changed?.has(toolKey(ref.server, ref.tool)) === true ? CHANGED_MARK : '';
    const def: WireTool & { name: string } = {
      name,
      description:
        `[MCP server "${ref.server}", tool "${ref.tool}"${label ? `: ${label}` : ''}${mark}] ${info.description ?? ''}`.trim(),
      input_schema: { ...info.inputSchema, type: 'object' },
    };
    const bytes = JSON.stringify(def).length;
    allBytes += bytes;
    const key = toolKey(ref.server, ref.tool);
    definitions.push({ def, keep: pinned.has(key) || used.has(key), bytes });
  }

  const search = !options.searchUnavailable && wantsSearch(options.settings, definitions.length, allBytes);
  if (!search) {
    const tools: WireTool[] = definitions.map((d) => d.def);
    markLastForCache(tools);
    return {
      table,
      tools,
      search: false,
      deferred: new Set(),
      offered: tools.length,
      leftOut: 0,
      bytes: { upFront: allBytes, all: allBytes },
    };
  }
  // Loaded ones first; past the catalog limit the rest is left out (and the turn says so).
  const ordered = [...definitions.filter((d) => d.keep), ...definitions.filter((d) => !d.keep)];
  const kept = ordered.slice(0, MAX_SEARCHABLE_TOOLS);
  const loaded: WireTool[] = [];
  const deferredTools: WireTool[] = [];
  const deferred = new Set<string>();
  let upFront = JSON.stringify(SEARCH_TOOL).length;
  for (const d of kept) {
    if (d.keep) {
      loaded.push(d.def);
      upFront += d.bytes;
    } else {
      deferredTools.push({ ...d.def, defer_loading: true });
      deferred.add(d.def.name);
    }
  }
  // The search tool is never deferred and ends the list: the cache breakpoint goes on it.
  const tools: WireTool[] = [...loaded, ...deferredTools, { ...SEARCH_TOOL }];
  markLastForCache(tools);
  return {
    table,
    tools,
    search: true,
    deferred,
    offered: kept.length,
    leftOut: ordered.length - kept.length,
    bytes: { upFront, all: allBytes },
  };
}

/** Whether tool search is on for this many tools of this many bytes. */
export function wantsSearch(settings: ToolSearchSettings, count: number, bytes: number): boolean {
  if (count === 0 || settings.mode === 'off') return false;
  if (settings.mode === 'always') return true;
  return count >= settings.minTools || estimateTokens(bytes) >= settings.minTokens;
}

function markLastForCache(tools: WireTool[]): void {
  const last = tools.at(-1);
  if (last) last.cache_control = { type: 'ephemeral' };
}
