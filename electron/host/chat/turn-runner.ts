import { randomUUID } from 'node:crypto';
import Anthropic from '@anthropic-ai/sdk';
import type { Message } from '@anthropic-ai/sdk/resources/messages';
import type {
  ChatBlock,
  ChatMessage,
  ToolResultChatBlock,
  ToolUseChatBlock,
  TurnState,
  Usage,
} from '../../../shared/model/chat.js';
import type { ServerSnapshot, ToolCallResult } from '../../../shared/model/server.js';
import { HostError, describeError } from '../errors.js';
import type { HostEventSink } from '../ipc/handlers.js';
import type { ServerManager } from '../servers/server-manager.js';
import type { ProgressUpdate } from '../servers/request-policy.js';
import { LatestThrottle } from '../latest-throttle.js';
import type { ConversationStore, NewMessage, StoredFullResult } from '../store/conversation-store.js';
import { retryableKind, toChatError } from './api-errors.js';
import type { ChatError } from './api-errors.js';
import { DeltaBatcher } from './delta-batcher.js';
import { ZERO_USAGE, addUsage } from '../../../shared/model/usage.js';
import { usageOf } from './pricing.js';
import { buildMessages, buildSystem, buildTools } from './request-builder.js';
import type { ToolConsent } from './tool-consent.js';
import { capContent, summarizeResult } from './tool-result-mapping.js';

export const MAX_OUTPUT_TOKENS = 8192;

export interface TurnContext {
  conversationId: string;
  turnId: string;
  client: Anthropic;
  model: string;
  baseUrl: string;
  maxIterations: number;
  signal: AbortSignal;
}

export interface TurnDeps {
  store: ConversationStore;
  servers: ServerManager;
  consent: ToolConsent;
  emit: HostEventSink;
  /** Records the turn's current state (for getConversation after a reload). */
  onState: (state: TurnState) => void;
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

  constructor(
    private readonly ctx: TurnContext,
    private readonly deps: TurnDeps,
  ) {}

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

  /** Streams one model response and commits it as an assistant message. */
  private async askModel(): Promise<ChatMessage> {
    const { store, servers } = this.deps;
    const snapshots = servers.list();
    const { table, tools } = buildTools(snapshots);
    const messages = buildMessages(store.messages(this.ctx.conversationId), table);
    const messageId = randomUUID();
    const batcher = new DeltaBatcher((text) => {
      this.deps.emit('chatDelta', {
        conversationId: this.ctx.conversationId,
        turnId: this.ctx.turnId,
        messageId,
        text,
      });
    });
    this.state('streaming');
    let final: Message;
    try {
      const stream = this.ctx.client.messages.stream(
        {
          model: this.ctx.model,
          max_tokens: MAX_OUTPUT_TOKENS,
          system: buildSystem(snapshots),
          messages,
          ...(tools.length > 0 ? { tools } : {}),
        },
        { signal: this.ctx.signal },
      );
      stream.on('text', (delta) => {
        batcher.push(delta);
      });
      final = await stream.finalMessage();
      batcher.flush();
    } catch (error) {
      batcher.discard();
      if (this.ctx.signal.aborted || error instanceof Anthropic.APIUserAbortError) throw new StopSignal();
      throw error;
    }
    const usage = usageOf(this.ctx.model, final.usage);
    const blocks: ChatBlock[] = [];
    for (const block of final.content) {
      if (block.type === 'text') blocks.push({ type: 'text', text: block.text });
      if (block.type === 'tool_use') {
        const ref = table.resolve(block.name) ?? { server: '', tool: block.name };
        blocks.push({
          type: 'tool_use',
          id: block.id,
          server: ref.server,
          tool: ref.tool,
          inputJson: JSON.stringify(block.input ?? {}),
        });
      }
    }
    const message = this.commit({
      id: messageId,
      role: 'assistant',
      blocks,
      ...(final.stop_reason !== null ? { stopReason: final.stop_reason } : {}),
      usage,
      model: final.model,
    });
    this.turnUsage = addUsage(this.turnUsage, usage);
    this.deps.emit('usage', {
      conversationId: this.ctx.conversationId,
      turnId: this.ctx.turnId,
      turn: this.turnUsage,
      conversation: store.get(this.ctx.conversationId).usage,
    });
    return message;
  }

  /** Runs the tool calls of one assistant message in order, committing each result as it comes. */
  private async runTools(toolUses: ToolUseChatBlock[]): Promise<void> {
    for (const use of toolUses) {
      if (this.ctx.signal.aborted) {
        this.commitResult(use, {
          status: 'cancelled',
          isError: true,
          content: [{ type: 'text', text: 'Not run: the user stopped the turn.' }],
        });
        continue;
      }
      await this.runTool(use);
    }
  }

  private async runTool(use: ToolUseChatBlock): Promise<void> {
    const snapshot: ServerSnapshot | undefined = this.deps.servers.list().find((s) => s.name === use.server);
    const info = snapshot?.tools.find((t) => t.name === use.tool);
    if (!snapshot || snapshot.status !== 'connected' || !info || info.disabled === true) {
      const why =
        !snapshot || use.server === ''
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
        this.commitResult(use, {
          status: 'cancelled',
          isError: true,
          content: [{ type: 'text', text: 'Not run: the user stopped the turn.' }],
        });
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
    this.state('running-tools');
    this.deps.emit('toolCallUpdate', { ...base, status: 'running', allowedBy: decision.by });
    const started = performance.now();
    let result: ToolCallResult;
    // Progress reaches the renderer at most ten times a second, the latest each time.
    const progress = new LatestThrottle<ProgressUpdate>((p) => {
      this.deps.emit('toolCallUpdate', {
        ...base,
        status: 'running',
        progress: {
          progress: p.progress,
          ...(p.total !== undefined ? { total: p.total } : {}),
          ...(p.message !== undefined ? { message: p.message } : {}),
        },
      });
    });
    try {
      result = await this.deps.servers.get(use.server).callTool(use.tool, use.inputJson, {
        signal: this.ctx.signal,
        onProgress: (p) => {
          progress.push(p);
        },
      });
    } catch (error) {
      progress.cancel();
      const durationMs = Math.round(performance.now() - started);
      if (this.ctx.signal.aborted) {
        this.commitResult(
          use,
          {
            status: 'cancelled',
            isError: true,
            durationMs,
            content: [{ type: 'text', text: 'Cancelled: the user stopped the turn.' }],
          },
          decision.by,
        );
        throw new StopSignal();
      }
      const message = error instanceof HostError ? error.message : describeError(error);
      this.commitResult(
        use,
        {
          status: 'error',
          isError: true,
          durationMs,
          content: [{ type: 'text', text: `The tool call failed: ${message}` }],
        },
        decision.by,
      );
      return;
    }
    progress.cancel();
    this.commitResult(
      use,
      {
        status: result.isError ? 'error' : 'ok',
        isError: result.isError,
        content: result.content,
        ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}),
        durationMs: result.durationMs,
      },
      decision.by,
    );
  }

  /** Commits one tool result (text capped, the full result kept aside) and reports it. */
  private commitResult(
    use: ToolUseChatBlock,
    result: Pick<ToolResultChatBlock, 'status' | 'isError' | 'content' | 'structuredContent' | 'durationMs'>,
    allowedBy?: 'user' | 'policy',
  ): void {
    const capped = capContent(result.content);
    const block: ToolResultChatBlock = {
      type: 'tool_result',
      toolUseId: use.id,
      server: use.server,
      tool: use.tool,
      status: result.status,
      isError: result.isError,
      content: capped.content,
      ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}),
      ...(result.durationMs !== undefined ? { durationMs: result.durationMs } : {}),
      ...(capped.totalChars !== undefined ? { truncated: { totalChars: capped.totalChars } } : {}),
    };
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
      ...(allowedBy !== undefined ? { allowedBy } : {}),
    });
  }

  private commit(message: Omit<NewMessage, 'turnId'>, full: StoredFullResult[] = []): ChatMessage {
    const { store, emit } = this.deps;
    const stored = store.addMessage(this.ctx.conversationId, { ...message, turnId: this.ctx.turnId }, full);
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

/** Thrown inside the loop when the user pressed Stop. */
class StopSignal extends Error {}

/** An error that already knows how to describe itself to the user. */
export class ChatFailure extends Error {
  constructor(readonly chatError: ChatError) {
    super(chatError.message);
  }
}
