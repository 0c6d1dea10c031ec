import type Anthropic from '@anthropic-ai/sdk';
import type { ChatMessage, ToolUseChatBlock, TurnState, Usage } from '../../../shared/model/chat.js';
import type { ConversationSettings } from '../../../shared/model/conversation-settings.js';
import type { ToolInfo, ToolCallResult } from '../../../shared/model/server.js';
import type { PinnedTool, ToolSearchSettings } from '../../../shared/model/settings.js';
import { HostError, describeError } from '../errors.js';
import type { HostEventSink } from '../ipc/handlers.js';
import type { ServerManager } from '../servers/server-manager.js';
import type { ServerConnection } from '../servers/server-connection.js';
import { offeredSkills } from '../features/skill-listing.js';
import { LOAD_SKILL_TOOL_NAME } from './skill-offer.js';
import { runLoadSkill } from './skill-tool.js';
import type { ConversationStore, NewMessage, StoredFullResult } from '../persistence/conversation-store.js';
import { retryableKind, toChatError } from './api-errors.js';
import type { ChatError } from './api-errors.js';
import { ZERO_USAGE, addUsage } from '../../../shared/model/usage.js';
import { ModelAsker } from './ask-model.js';
import type { EndpointQuirks } from './model-request.js';
import type { ToolConsent } from './tool-consent.js';
import { capContent, summarizeResult, toResultBlock } from './tool-result-mapping.js';
import type { AllowedBy, ToolOutcome } from './tool-result-mapping.js';
import { SandboxedCallError } from '../servers/sandbox-attribution.js';
import type { TaskInfo } from '../../../shared/model/tasks.js';
import { callUntilTask, progressOf, taskStartedText } from './task-start.js';
import { ChatFailure, StopSignal } from './turn-signals.js';

export { ChatFailure } from './turn-signals.js';

/** A request waits this long for skill checks still running; a skill checked later is offered from then on. */
const SKILL_CHECK_WAIT_MS = 3000;

export interface TurnContext {
  conversationId: string;
  turnId: string;
  client: Anthropic;
  model: string;
  baseUrl: string;
  maxIterations: number;
  signal: AbortSignal;
  toolSearch: ToolSearchSettings;
  pinned: readonly PinnedTool[];
  conversation?: ConversationSettings | undefined;
  quirks: EndpointQuirks;
  contextWindow: number;
  /** The first message this turn commits follows this one (a regenerated answer), not the head. */
  firstParentId?: string | undefined;
}

export interface TurnDeps {
  store: ConversationStore;
  servers: ServerManager;
  consent: ToolConsent;
  emit: HostEventSink;
  /** Records the turn's current state (for getConversation after a reload). */
  onState: (state: TurnState) => void;
  /** Takes a call that became a task: the turn goes on, its end comes back in a later message. */
  tasks?: { follow(task: TaskInfo, call: Promise<ToolCallResult>): void } | undefined;
}

/**
 * One turn of the agent loop: ask Claude (streaming), commit its message,
 * run each tool_use through consent and MCP tools/call, commit each result,
 * and ask again, until Claude ends its turn, the iteration limit is reached,
 * the user stops, or an error ends it. Every completed message is committed
 * before the next step starts.
 */
export class TurnRunner {
  private turnUsage: Usage = ZERO_USAGE;
  private readonly asker: ModelAsker;
  private nextParent: string | undefined;

  constructor(
    private readonly ctx: TurnContext,
    private readonly deps: TurnDeps,
  ) {
    this.nextParent = ctx.firstParentId;
    this.asker = new ModelAsker(ctx, {
      history: () => this.history(),
      servers: deps.servers,
      emit: deps.emit,
      commit: (message) => this.commit(message),
      streaming: () => {
        this.state('streaming');
      },
      changedTools: (servers) => deps.consent.changedTools(servers),
      skills: () => offeredSkills(this.connections(), ctx.conversation, SKILL_CHECK_WAIT_MS),
    });
  }

  async run(): Promise<void> {
    try {
      for (let iteration = 0; iteration < this.ctx.maxIterations; iteration++) {
        const assistant = await this.askModel();
        const toolUses = assistant.blocks.filter((b): b is ToolUseChatBlock => b.type === 'tool_use');
        if (toolUses.length === 0) {
          this.state('done');
          return;
        }
        await this.runTools(toolUses);
        if (this.ctx.signal.aborted) throw new StopSignal();
      }
      this.commit({
        role: 'notice',
        blocks: [
          {
            type: 'notice',
            level: 'warning',
            text: `Stopped after ${String(this.ctx.maxIterations)} model requests in one turn (the iteration limit). Retry to let Claude continue.`,
          },
        ],
      });
      this.state('error', {
        code: 'iteration_limit',
        message: `Stopped at the limit of ${String(this.ctx.maxIterations)} model requests per turn`,
      });
    } catch (error) {
      if (error instanceof StopSignal || this.ctx.signal.aborted) {
        this.commit({ role: 'notice', blocks: [{ type: 'notice', level: 'info', text: 'Stopped.' }] });
        this.state('stopped');
        return;
      }
      const chatError = error instanceof ChatFailure ? error.chatError : toChatError(error, this.ctx.baseUrl);
      this.state('error', chatError);
    }
  }

  /** The API answered 429/529/5xx; the SDK retries with backoff, the UI shows "retrying…". */
  retrying(status: number): void {
    const code = retryableKind(status);
    const what = { rate_limited: 'Rate limited', overloaded: 'The API is overloaded', api: 'The API failed' }[
      code
    ];
    this.state('retrying', { code, message: `${what} (${String(status)}); retrying…` });
  }

  /** The branch shown; before a regenerated answer's first message, only up to the message it follows. */
  private history(): ChatMessage[] {
    const messages = this.deps.store.messages(this.ctx.conversationId);
    if (this.nextParent === undefined) return messages;
    const end = messages.findIndex((m) => m.id === this.nextParent);
    return end >= 0 ? messages.slice(0, end + 1) : messages;
  }

  /** Streams one model response and commits it as an assistant message. */
  private async askModel(): Promise<ChatMessage> {
    const { message } = await this.asker.ask();
    if (message.usage) this.turnUsage = addUsage(this.turnUsage, message.usage);
    this.deps.emit('usage', {
      conversationId: this.ctx.conversationId,
      turnId: this.ctx.turnId,
      turn: this.turnUsage,
      conversation: this.deps.store.get(this.ctx.conversationId).usage,
    });
    return message;
  }

  /** Runs the tool calls of one assistant message in order, committing each result as it comes. */
  private async runTools(toolUses: ToolUseChatBlock[]): Promise<void> {
    for (const use of toolUses) {
      if (this.ctx.signal.aborted) {
        this.commitResult(use, NOT_RUN);
        continue;
      }
      await this.runTool(use);
    }
  }

  private async runTool(use: ToolUseChatBlock): Promise<void> {
    if (use.server === '' && use.tool === LOAD_SKILL_TOOL_NAME) {
      // The host's own tool: a read of a verified skill, not a server's tool call (see skill-tool.ts).
      this.state('running-tools');
      const started = performance.now();
      const result = await runLoadSkill(use.inputJson, this.deps.servers, this.ctx.conversation);
      const durationMs = Math.round(performance.now() - started);
      this.commitResult(use, { ...result, status: result.isError ? 'error' : 'ok', durationMs });
      return;
    }
    const connection =
      use.server !== '' && this.deps.servers.has(use.server) ? this.deps.servers.get(use.server) : undefined;
    const info: ToolInfo | undefined = connection?.offeredTool(use.tool);
    if (!connection || connection.currentStatus !== 'connected' || !info) {
      const why = !connection
        ? `There is no tool named "${use.tool}".`
        : `The tool "${use.tool}" of server "${use.server}" is not available now.`;
      this.commitResult(use, { status: 'error', isError: true, content: [{ type: 'text', text: why }] });
      return;
    }
    const base = {
      conversationId: this.ctx.conversationId,
      turnId: this.ctx.turnId,
      toolUseId: use.id,
      server: use.server,
      tool: use.tool,
    };
    let args: unknown;
    try {
      args = JSON.parse(use.inputJson);
    } catch {
      args = {};
    }
    this.deps.emit('toolCallUpdate', { ...base, status: 'waiting-consent' });
    this.state('waiting-consent');
    let decision;
    try {
      decision = await this.deps.consent.decide(
        { server: use.server, tool: info, args, conversationId: this.ctx.conversationId },
        this.ctx.signal,
      );
    } catch (error) {
      if (this.ctx.signal.aborted) {
        this.commitResult(use, NOT_RUN);
        throw new StopSignal();
      }
      throw error;
    }
    if (!decision.allowed) {
      this.commitResult(use, {
        status: 'denied',
        isError: true,
        content: [{ type: 'text', text: 'The user declined this tool call.' }],
      });
      return;
    }
    const allowed: AllowedBy = { allowedBy: decision.by, ...(decision.rule ? { rule: decision.rule } : {}) };
    // Consent was given for the program the name stood for then; never run another one on it.
    if (!this.sameServer(use.server, decision.identityHash)) {
      this.commitResult(use, {
        status: 'error',
        isError: true,
        content: [
          {
            type: 'text',
            text: `Not run: the server "${use.server}" was changed while the call waited for approval.`,
          },
        ],
      });
      return;
    }
    this.state('running-tools');
    this.deps.emit('toolCallUpdate', { ...base, status: 'running', ...allowed });
    const started = performance.now();
    let outcome: Awaited<ReturnType<typeof callUntilTask>>;
    try {
      // A call that becomes a task is not waited for (with somewhere to hand it): Stop no longer reaches it.
      outcome = await callUntilTask(
        this.deps.servers.get(use.server),
        use,
        this.ctx,
        this.deps.tasks !== undefined,
        {
          onProgress: (p) => {
            this.deps.emit('toolCallUpdate', { ...base, status: 'running', progress: progressOf(p) });
          },
        },
      );
    } catch (error) {
      const durationMs = Math.round(performance.now() - started);
      if (this.ctx.signal.aborted) {
        const content = [{ type: 'text' as const, text: 'Cancelled: the user stopped the turn.' }];
        this.commitResult(use, { status: 'cancelled', isError: true, durationMs, content }, allowed);
        throw new StopSignal();
      }
      const message = error instanceof HostError ? error.message : describeError(error);
      const content = [{ type: 'text' as const, text: `The tool call failed: ${message}` }];
      const blocked = error instanceof SandboxedCallError ? { sandboxBlocked: error.sandboxBlocked } : {};
      this.commitResult(use, { status: 'error', isError: true, durationMs, content, ...blocked }, allowed);
      return;
    }
    if (outcome.kind === 'task') {
      const durationMs = Math.round(performance.now() - started);
      const content = [{ type: 'text' as const, text: taskStartedText(outcome.task, use.id) }];
      const taskId = outcome.task.taskId;
      this.commitResult(use, { status: 'ok', isError: false, durationMs, content, taskId }, allowed);
      this.deps.tasks?.follow(outcome.task, outcome.call);
      return;
    }
    const { result } = outcome;
    this.commitResult(
      use,
      {
        status: result.isError ? 'error' : 'ok',
        isError: result.isError,
        content: result.content,
        ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}),
        durationMs: result.durationMs,
        ...(result.sandboxBlocked !== undefined ? { sandboxBlocked: result.sandboxBlocked } : {}),
      },
      allowed,
    );
  }

  private connections(): ServerConnection[] {
    return this.deps.servers.list().map((s) => this.deps.servers.get(s.name));
  }

  /** Whether `server` still stands for the identity consent was given for. */
  private sameServer(server: string, identityHash: string): boolean {
    return this.deps.servers.has(server) && this.deps.servers.get(server).identity.hash === identityHash;
  }

  /** Commits one tool result (text capped, the full result kept aside) and reports it. */
  private commitResult(use: ToolUseChatBlock, result: ToolOutcome, allowed?: AllowedBy): void {
    const capped = capContent(result.content);
    const block = toResultBlock(use, result, capped, allowed);
    const full: StoredFullResult[] =
      capped.totalChars !== undefined
        ? [
            {
              toolUseId: use.id,
              content: result.content,
              ...(result.structuredContent !== undefined
                ? { structuredContent: result.structuredContent }
                : {}),
            },
          ]
        : [];
    this.commit({ role: 'tool', blocks: [block] }, full);
    this.deps.emit('toolCallUpdate', {
      conversationId: this.ctx.conversationId,
      turnId: this.ctx.turnId,
      toolUseId: use.id,
      server: use.server,
      tool: use.tool,
      status: result.status === 'ok' ? 'done' : result.status,
      ...(result.durationMs !== undefined ? { durationMs: result.durationMs } : {}),
      summary: summarizeResult(block),
      ...allowed,
    });
  }

  private commit(message: Omit<NewMessage, 'turnId'>, full: StoredFullResult[] = []): ChatMessage {
    const { store, emit } = this.deps;
    const parent = this.nextParent;
    this.nextParent = undefined;
    const stored = store.addMessage(
      this.ctx.conversationId,
      { ...message, turnId: this.ctx.turnId, ...(parent !== undefined ? { parentId: parent } : {}) },
      full,
    );
    emit('chatMessage', { conversationId: this.ctx.conversationId, message: stored });
    emit('conversationChanged', store.get(this.ctx.conversationId));
    return stored;
  }

  private state(state: TurnState, error?: ChatError): void {
    this.deps.onState(state);
    this.deps.emit('turnState', {
      conversationId: this.ctx.conversationId,
      turnId: this.ctx.turnId,
      state,
      ...(error ? { error } : {}),
      canRetry: state === 'error' || state === 'stopped',
    });
  }
}

/** The result of a call the turn never ran because the person stopped it. */
const NOT_RUN: ToolOutcome = {
  status: 'cancelled',
  isError: true,
  content: [{ type: 'text', text: 'Not run: the user stopped the turn.' }],
};
