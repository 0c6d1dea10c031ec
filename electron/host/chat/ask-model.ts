import { randomUUID } from 'node:crypto';
import Anthropic from '@anthropic-ai/sdk';
import type { ChatMessage } from '../../../shared/model/chat.js';
import type { ConversationSettings } from '../../../shared/model/conversation-settings.js';
import type { PinnedTool, ToolSearchSettings } from '../../../shared/model/settings.js';
import type { ServerSnapshot } from '../../../shared/model/server.js';
import type { HostEventSink } from '../ipc/handlers.js';
import type { ServerManager } from '../servers/server-manager.js';
import type { NewMessage } from '../persistence/conversation-store.js';
import type { OfferedSkill } from '../features/skill-listing.js';
import { fallbackNotice, isContextTooLong, refusedFeature } from './api-rejections.js';
import type { OptionalFeature } from './api-rejections.js';
import { DeltaBatcher } from './delta-batcher.js';
import { planRequest } from './model-request.js';
import type { EndpointQuirks, PlanInput, RequestPlan } from './model-request.js';
import { streamPlan } from './model-stream.js';
import type { ModelResponse } from './model-stream.js';
import { chatBlocksOf, responseUsage } from './response-blocks.js';
import { ChatFailure, StopSignal } from './turn-signals.js';

/** How many times one model request is rebuilt after a refusal before the turn fails. */
const MAX_ATTEMPTS = 6;
/** The host's last resort for an over-long conversation keeps this many tool results whole. */
const KEEP_TOOL_RESULTS = 3;

export interface AskContext {
  conversationId: string;
  turnId: string;
  client: Anthropic;
  model: string;
  signal: AbortSignal;
  toolSearch: ToolSearchSettings;
  pinned: readonly PinnedTool[];
  conversation?: ConversationSettings | undefined;
  /** What this endpoint + model refused before; updated here when it refuses again. */
  quirks: EndpointQuirks;
  contextWindow: number;
}

export interface AskDeps {
  /** The messages Claude answers: the branch shown, or up to the message a regenerated answer follows. */
  history: () => ChatMessage[];
  servers: ServerManager;
  emit: HostEventSink;
  commit: (message: Omit<NewMessage, 'turnId'>) => ChatMessage;
  streaming: () => void;
  /** The tools of these servers whose definition is marked changed or new (toolKey), compared now. */
  changedTools?: (servers: readonly ServerSnapshot[]) => ReadonlySet<string>;
  /** The verified skills this conversation offers now. */
  skills: () => Promise<readonly OfferedSkill[]>;
}

/**
 * Asks Claude once (streaming) and commits its answer. The request is
 * planned from the conversation as stored (tools, tool search, thinking,
 * context management); when the API refuses a feature the endpoint lacks,
 * the request is planned again without it and the conversation says so in
 * one line; when the conversation no longer fits the context window, the
 * API is asked to clear and compact, then the host clears old tool results
 * itself, and only then does the turn fail, saying what to do.
 */
export class ModelAsker {
  /** Kept for the rest of the turn once the conversation was found too long. */
  private force: PlanInput['force'];

  constructor(
    private readonly ctx: AskContext,
    private readonly deps: AskDeps,
  ) {}

  async ask(): Promise<{ message: ChatMessage; response: ModelResponse }> {
    for (let attempt = 0; ; attempt++) {
      const skills = await this.deps.skills();
      const history = this.deps.history();
      const servers = this.deps.servers.list();
      const plan = planRequest({
        skills,
        history,
        servers,
        changed: this.deps.changedTools?.(servers),
        model: this.ctx.model,
        toolSearch: this.ctx.toolSearch,
        pinned: this.ctx.pinned,
        conversation: this.ctx.conversation,
        quirks: this.ctx.quirks,
        contextWindow: this.ctx.contextWindow,
        force: this.force,
      });
      this.sayOnce(history, plan);
      const messageId = randomUUID();
      let response: ModelResponse;
      try {
        response = await this.stream(plan, messageId);
      } catch (error) {
        if (this.ctx.signal.aborted || error instanceof Anthropic.APIUserAbortError) throw new StopSignal();
        if (attempt + 1 >= MAX_ATTEMPTS || !this.adapt(error, plan)) throw error;
        continue;
      }
      const message = this.deps.commit({
        id: messageId,
        role: 'assistant',
        blocks: chatBlocksOf(response.content, { table: plan.offer.table, deferred: plan.offer.deferred }),
        ...(response.stopReason !== null ? { stopReason: response.stopReason } : {}),
        usage: responseUsage(this.ctx.model, response.usage),
        model: response.model,
      });
      this.reportContext(response);
      return { message, response };
    }
  }

  private async stream(plan: RequestPlan, messageId: string): Promise<ModelResponse> {
    const delta = (kind: 'text' | 'thinking') =>
      new DeltaBatcher((text) => {
        this.deps.emit('chatDelta', {
          conversationId: this.ctx.conversationId,
          turnId: this.ctx.turnId,
          messageId,
          text,
          ...(kind === 'thinking' ? { kind } : {}),
        });
      });
    const text = delta('text');
    const thinking = delta('thinking');
    this.deps.streaming();
    try {
      const response = await streamPlan(
        this.ctx.client,
        this.ctx.model,
        plan,
        {
          onText: (t) => {
            // Thinking comes first: what was thought is sent before the answer starts.
            thinking.flush();
            text.push(t);
          },
          onThinking: (t) => {
            thinking.push(t);
          },
        },
        this.ctx.signal,
      );
      thinking.flush();
      text.flush();
      return response;
    } catch (error) {
      thinking.discard();
      text.discard();
      throw error;
    }
  }

  /** Changes the next attempt after a refusal; false when nothing is left to change. */
  private adapt(error: unknown, plan: RequestPlan): boolean {
    const feature = refusedFeature(error, {
      toolSearch: plan.offer.search,
      thinking: plan.thinking !== undefined || plan.effort !== undefined,
      contextManagement: plan.beta !== undefined,
    });
    if (feature) {
      this.learn(feature);
      this.notice(fallbackNotice(feature, { tools: plan.offer.offered, model: this.ctx.model }), feature);
      return true;
    }
    if (!isContextTooLong(error)) return false;
    if (this.force?.contextManagement !== true && !this.ctx.quirks.noContextManagement) {
      this.force = { contextManagement: true };
      this.notice(
        'The conversation no longer fits the model’s context window: the API is asked to clear old tool results and compact it.',
        'context_full',
      );
      return true;
    }
    if (this.force?.keepToolResults === undefined) {
      this.force = { ...this.force, keepToolResults: KEEP_TOOL_RESULTS };
      this.notice(
        `The conversation still does not fit: all but the last ${String(KEEP_TOOL_RESULTS)} tool results are left out of what Claude reads (you still see them here).`,
        'context_trimmed',
      );
      return true;
    }
    throw new ChatFailure({
      code: 'context_length',
      message: `This conversation is longer than ${this.ctx.model}’s context window, even with old tool results cleared. Edit an earlier message to continue from there, or start a new conversation.`,
    });
  }

  private learn(feature: OptionalFeature): void {
    if (feature === 'tool_search') this.ctx.quirks.noToolSearch = true;
    else if (feature === 'thinking') this.ctx.quirks.noThinking = true;
    else this.ctx.quirks.noContextManagement = true;
  }

  /** Features known to be refused here: said once per conversation, the first time they matter. */
  private sayOnce(history: readonly ChatMessage[], plan: RequestPlan): void {
    const said = new Set(
      history.flatMap((m) =>
        m.blocks.flatMap((b) => (b.type === 'notice' && b.code !== undefined ? [b.code] : [])),
      ),
    );
    for (const feature of plan.refused) {
      if (!said.has(feature)) {
        this.notice(fallbackNotice(feature, { tools: plan.offer.offered, model: this.ctx.model }), feature);
      }
    }
    if (plan.offer.leftOut > 0 && !said.has('tools_left_out')) {
      this.notice(
        `${String(plan.offer.leftOut)} tools are left out: tool search takes at most ${String(plan.offer.offered)} tools. Turn off servers or tools this conversation does not need.`,
        'tools_left_out',
        'warning',
      );
    }
  }

  /** Says what the API's context management did in this response. */
  private reportContext(response: ModelResponse): void {
    for (const edit of response.contextManagement?.applied_edits ?? []) {
      if (edit.type === 'clear_tool_uses_20250919' && edit.cleared_tool_uses > 0) {
        this.notice(
          `To make room, the API cleared ${String(edit.cleared_tool_uses)} old tool results (${edit.cleared_input_tokens.toLocaleString('en-US')} tokens) from what Claude reads; you still see them here.`,
        );
      }
    }
    if (response.content.some((b) => b.type === 'compaction')) {
      this.notice(
        'The conversation was compacted: Claude now reads a summary of the earlier messages (you still see all of them here).',
      );
    }
    if (response.stopReason === 'model_context_window_exceeded') {
      this.notice(
        'Claude’s answer stopped because the conversation filled the model’s context window. Send a message to go on: old context is cleared and compacted first.',
        undefined,
        'warning',
      );
    }
  }

  private notice(text: string, code?: string, level: 'info' | 'warning' = 'info'): void {
    this.deps.commit({
      role: 'notice',
      blocks: [{ type: 'notice', level, text, ...(code !== undefined ? { code } : {}) }],
    });
  }
}
