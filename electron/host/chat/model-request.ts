import type { BetaContextManagementConfig } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { AnthropicBeta } from '@anthropic-ai/sdk/resources/beta/beta';
import type { ChatMessage } from '../../../shared/model/chat.js';
import { NEAR_LIMIT_SHARE, currentContext } from '../../../shared/model/context-window.js';
import type { ConversationSettings, Effort } from '../../../shared/model/conversation-settings.js';
import type { ServerSnapshot } from '../../../shared/model/server.js';
import type { PinnedTool, ToolSearchSettings } from '../../../shared/model/settings.js';
import type { OfferedSkill } from '../features/skill-listing.js';
import { buildMessages, buildSystem } from './request-builder.js';
import { skillsSection } from './skill-offer.js';
import { offerTools, toolKey, wantsSearch } from './tool-offer.js';
import type { ToolOffer } from './tool-offer.js';
import type { WireMessage, WireText } from './wire-types.js';

/** Output tokens per response; thinking counts against them, so it gets more room. */
export const MAX_OUTPUT_TOKENS = 8192;
export const MAX_OUTPUT_TOKENS_THINKING = 32_000;

/** The API's smallest compaction trigger. */
const MIN_COMPACTION_TRIGGER = 50_000;
/** Tool uses kept whole when the API clears old tool results. */
const KEEP_TOOL_USES = 3;

/** What an endpoint + model turned out not to take; learned from its refusals, kept for the session. */
export interface EndpointQuirks {
  noToolSearch: boolean;
  noThinking: boolean;
  noContextManagement: boolean;
}

export interface PlanInput {
  history: readonly ChatMessage[];
  servers: readonly ServerSnapshot[];
  model: string;
  toolSearch: ToolSearchSettings;
  pinned: readonly PinnedTool[];
  /** Tools (toolKey) whose definition changed or that are new since pinned: marked in the tool list. */
  changed?: ReadonlySet<string> | undefined;
  conversation?: ConversationSettings | undefined;
  quirks: EndpointQuirks;
  contextWindow: number;
  /** Verified skills this conversation offers (listed in the system prompt, loaded with load_skill). */
  skills?: readonly OfferedSkill[] | undefined;
  /** After the API said the conversation is too long: clear and compact now, or clear old results ourselves. */
  force?: { contextManagement?: boolean; keepToolResults?: number } | undefined;
}

export interface RequestPlan {
  offer: ToolOffer;
  system: WireText[];
  messages: WireMessage[];
  maxTokens: number;
  thinking?: { type: 'adaptive' } | { type: 'disabled' };
  effort?: Effort;
  /** Set when the request goes to the beta endpoint (context management, or compaction in the history). */
  beta?: { betas: AnthropicBeta[]; contextManagement: BetaContextManagementConfig };
  /** Features the settings ask for that this endpoint is known to refuse (so the turn can say so). */
  refused: ('tool_search' | 'thinking')[];
}

/**
 * Everything one model request is made of, decided from the conversation,
 * the settings and what the endpoint is known to refuse: which tools (loaded
 * or deferred behind tool search), thinking and effort, and — when the
 * conversation nears the model's context window, or was compacted before —
 * the API's context management (clear old tool results, compact).
 */
export function planRequest(input: PlanInput): RequestPlan {
  const { history, quirks, conversation } = input;
  const used = new Set<string>();
  let compacted = false;
  for (const message of history) {
    for (const block of message.blocks) {
      if (block.type === 'tool_use') used.add(toolKey(block.server, block.tool));
      else if (block.type === 'compaction') compacted = true;
    }
  }
  const offer = offerTools(input.servers, {
    settings: input.toolSearch,
    pinned: input.pinned,
    conversation,
    searchUnavailable: quirks.noToolSearch,
    used,
    ...(input.changed ? { changed: input.changed } : {}),
  });
  const skills = skillsSection(input.skills ?? []);
  // The host's tool goes first: the cache breakpoint stays on the last tool.
  if (skills) offer.tools.unshift(skills.tool);

  const wanted = conversation?.thinking ?? 'default';
  const mode = quirks.noThinking ? 'default' : wanted;
  const thinking =
    mode === 'adaptive'
      ? { type: 'adaptive' as const }
      : mode === 'off'
        ? { type: 'disabled' as const }
        : undefined;
  const effort = mode === 'adaptive' ? conversation?.effort : undefined;

  const size = currentContext(history)?.tokens ?? 0;
  const near = size >= NEAR_LIMIT_SHARE * input.contextWindow || input.force?.contextManagement === true;
  const beta = !quirks.noContextManagement && (near || compacted);
  const messages = buildMessages(history, offer.table, {
    search: offer.search,
    dropThinking: quirks.noThinking || mode === 'off',
    compaction: beta,
    ...(input.force?.keepToolResults !== undefined ? { keepToolResults: input.force.keepToolResults } : {}),
  });
  return {
    offer,
    system: buildSystem(input.servers, {
      userPrompt: conversation?.systemPrompt,
      search: offer.search,
      skills: skills?.text,
    }),
    messages,
    maxTokens: mode === 'adaptive' ? MAX_OUTPUT_TOKENS_THINKING : MAX_OUTPUT_TOKENS,
    ...(thinking ? { thinking } : {}),
    ...(effort !== undefined ? { effort } : {}),
    ...(beta
      ? { beta: contextManagement(input.contextWindow, input.force?.contextManagement === true) }
      : {}),
    refused: [
      ...(quirks.noToolSearch && wantsSearch(input.toolSearch, offer.offered, offer.bytes.all)
        ? (['tool_search'] as const)
        : []),
      ...(quirks.noThinking && wanted === 'adaptive' ? (['thinking'] as const) : []),
    ],
  };
}

/**
 * Clear old tool results from half the window on (a quarter when forced),
 * keeping the last three; compact from three quarters (the API's minimum
 * when forced). The API applies each edit only once its trigger is reached.
 */
function contextManagement(window: number, forced: boolean): NonNullable<RequestPlan['beta']> {
  const clearAt = Math.floor(window * (forced ? 0.25 : 0.5));
  const compactAt = forced
    ? MIN_COMPACTION_TRIGGER
    : Math.max(MIN_COMPACTION_TRIGGER, Math.floor(window * 0.75));
  return {
    betas: ['context-management-2025-06-27', 'compact-2026-01-12'],
    contextManagement: {
      edits: [
        {
          type: 'clear_tool_uses_20250919',
          trigger: { type: 'input_tokens', value: clearAt },
          keep: { type: 'tool_uses', value: KEEP_TOOL_USES },
        },
        { type: 'compact_20260112', trigger: { type: 'input_tokens', value: compactAt } },
      ],
    },
  };
}
