import { randomUUID } from 'node:crypto';
import Anthropic from '@anthropic-ai/sdk';
import type {
  Attachment,
  ChatBlock,
  ChatMessage,
  TaskResultChatBlock,
  TurnStarted,
  TurnState,
} from '../../../shared/model/chat.js';
import { contextWindowOf } from '../../../shared/model/context-window.js';
import type { ModelInfo, ModelList } from '../../../shared/model/settings.js';
import { HostError } from '../errors.js';
import type { HostEventSink } from '../ipc/handlers.js';
import type { ServerManager } from '../servers/server-manager.js';
import type { ConversationStore, StoredFullResult } from '../persistence/conversation-store.js';
import type { Persistence } from '../persistence/persistence.js';
import type { SettingsStore } from '../persistence/settings-store.js';
import { fetchModels } from './model-list.js';
import { userMessageBlocks } from './message-context.js';
import type { EndpointQuirks } from './model-request.js';
import type { ToolConsent } from './tool-consent.js';
import { TurnRunner } from './turn-runner.js';
import type { TurnDeps } from './turn-runner.js';

export const DEFAULT_TITLE = 'New conversation';

export interface ChatServiceOptions {
  /** The host's stores (conversations, settings); opened on first use. */
  persistence: Persistence;
  /** The consent gate of tool calls, built by the host over the same stores. */
  toolConsent: () => Promise<ToolConsent>;
  servers: ServerManager;
  emit: HostEventSink;
  /** SDK retries for 429/529/5xx/network (default 2, the SDK's own default). */
  maxRetries?: number | undefined;
  /** MCP Apps' latest model-context updates, added before the next user message (and then cleared). */
  appContext?: { take(conversationId: string): ChatBlock[] } | undefined;
  /** Where a tool call that became a task is handed, so the turn need not wait for it. */
  tasks?: TurnDeps['tasks'];
}

interface ActiveTurn {
  turnId: string;
  controller: AbortController;
  state: TurnState;
  done: Promise<void>;
}

interface Ready {
  conversations: ConversationStore;
  settings: SettingsStore;
  toolConsent: ToolConsent;
}

/**
 * Turns with Claude: at most one running turn per conversation, each an
 * agent loop (TurnRunner) over the conversation's stored history. The
 * stores themselves belong to the host's Persistence.
 */
export class ChatService {
  private readonly active = new Map<string, ActiveTurn>();
  /** What each endpoint + model refused (tool search, thinking, context management), for this run. */
  private readonly quirks = new Map<string, EndpointQuirks>();
  /** Models as the models API last described them (context windows). */
  private models: readonly ModelInfo[] | undefined;
  private stopping = false;

  constructor(private readonly options: ChatServiceOptions) {}

  /** The running turn of a conversation, if any. */
  activeTurn(conversationId: string): { turnId: string; state: TurnState } | undefined {
    const turn = this.active.get(conversationId);
    return turn ? { turnId: turn.turnId, state: turn.state } : undefined;
  }

  /** Stops every turn; no task result starts a new one from now on. */
  async dispose(): Promise<void> {
    this.stopping = true;
    await Promise.all([...this.active.keys()].map((id) => this.stop(id)));
  }

  private async open(): Promise<Ready> {
    const { conversations, settings } = await this.options.persistence.open();
    return { conversations, settings, toolConsent: await this.options.toolConsent() };
  }

  /** Commits the user message and starts a turn. */
  async send(conversationId: string, text: string, attachments: Attachment[]): Promise<TurnStarted> {
    const ready = await this.open();
    const conversation = ready.conversations.get(conversationId);
    if (text.trim() === '' && attachments.length === 0)
      throw new HostError('invalid_params', 'The message is empty');
    return this.begin(conversationId, ready, async (turn) => {
      const apiKey = await requireKey(ready.settings);
      const blocks = [
        ...(this.options.appContext?.take(conversationId) ?? []),
        ...(await userMessageBlocks(this.options.servers, text, attachments, turn.controller.signal)),
      ];
      const userMessage = ready.conversations.addMessage(conversationId, {
        turnId: turn.turnId,
        role: 'user',
        blocks,
      });
      this.options.emit('chatMessage', { conversationId, message: userMessage });
      const title = text.trim() !== '' ? text : promptTitle(attachments);
      if (conversation.title === DEFAULT_TITLE && title !== '') {
        ready.conversations.rename(conversationId, titleFrom(title));
      }
      this.options.emit('conversationChanged', ready.conversations.get(conversationId));
      this.run(conversationId, turn, ready, apiKey);
      return { turnId: turn.turnId, userMessage };
    });
  }

  /** Runs the model again from the stored history. */
  async retry(conversationId: string): Promise<TurnStarted> {
    const ready = await this.open();
    ready.conversations.get(conversationId);
    const last = ready.conversations
      .messages(conversationId)
      .filter((m) => m.role !== 'notice')
      .at(-1);
    if (!last) throw new HostError('conflict', 'There is nothing to retry in this conversation yet');
    if (last.role === 'assistant' && !last.blocks.some((b) => b.type === 'tool_use')) {
      throw new HostError('conflict', 'Claude already answered; send a new message instead');
    }
    return this.begin(conversationId, ready, async (turn) => {
      this.run(conversationId, turn, ready, await requireKey(ready.settings));
      return { turnId: turn.turnId };
    });
  }

  /**
   * Sends an earlier user message again with new text. The new version
   * starts a branch beside the old one (its attachments and context come
   * along); the old version and its answers stay reachable.
   */
  async edit(conversationId: string, messageId: string, text: string): Promise<TurnStarted> {
    const ready = await this.open();
    const original = ready.conversations.message(conversationId, messageId);
    if (original.role !== 'user')
      throw new HostError('invalid_params', 'Only your own messages can be edited');
    const kept = original.blocks.filter((b) => b.type !== 'text');
    if (text.trim() === '' && kept.length === 0)
      throw new HostError('invalid_params', 'The message is empty');
    return this.begin(conversationId, ready, async (turn) => {
      const apiKey = await requireKey(ready.settings);
      const userMessage = ready.conversations.addMessage(conversationId, {
        turnId: turn.turnId,
        role: 'user',
        blocks: [...kept, ...(text.trim() !== '' ? [{ type: 'text' as const, text }] : [])],
        parentId: original.parentId ?? null,
      });
      this.options.emit('chatMessage', { conversationId, message: userMessage });
      this.options.emit('conversationChanged', ready.conversations.get(conversationId));
      this.run(conversationId, turn, ready, apiKey);
      return { turnId: turn.turnId, userMessage };
    });
  }

  /** Answers the last user message again; the new answer is a branch beside the old one. */
  async regenerate(conversationId: string): Promise<TurnStarted> {
    const ready = await this.open();
    const messages = ready.conversations.messages(conversationId);
    const lastUser = [...messages].reverse().find((m: ChatMessage) => m.role === 'user');
    if (!lastUser) throw new HostError('conflict', 'There is no answer to regenerate yet');
    return this.begin(conversationId, ready, async (turn) => {
      this.run(conversationId, turn, ready, await requireKey(ready.settings), lastUser.id);
      return { turnId: turn.turnId };
    });
  }

  /**
   * Claims the turn slot, then starts the turn; the slot is given back if
   * starting fails. The turn is recorded as running before anything of it is
   * stored, so a host that dies from here on leaves a mark to find at the
   * next start (markInterrupted).
   */
  private async begin(
    conversationId: string,
    ready: Ready,
    start: (turn: ActiveTurn) => Promise<TurnStarted>,
  ): Promise<TurnStarted> {
    const turn = this.reserve(conversationId);
    try {
      ready.conversations.setRunningTurn(conversationId, turn.turnId);
      return await start(turn);
    } catch (error) {
      this.active.delete(conversationId);
      ready.conversations.setRunningTurn(conversationId, null);
      throw error;
    }
  }

  /**
   * The end of a task an earlier turn started: once no turn runs in the
   * conversation, its result is committed as a message (`committed` is told
   * at once) and a new turn lets Claude continue; resolves when that turn
   * ends. A conversation that already holds this result gets nothing twice.
   */
  async continueWithTaskResult(
    conversationId: string,
    block: TaskResultChatBlock,
    full: StoredFullResult[],
    committed: () => void,
  ): Promise<void> {
    const ready = await this.open();
    for (;;) {
      // A task's end found after dispose is left pending: the next host delivers it.
      if (this.stopping) throw new HostError('not_connected', 'The host is stopping');
      const running = this.active.get(conversationId);
      if (running) {
        await running.done.catch(() => undefined);
        // A turn still starting has no loop to wait for yet: look again shortly.
        if (this.active.get(conversationId) === running) await new Promise((r) => setTimeout(r, 50));
        continue;
      }
      const already = ready.conversations
        .messages(conversationId)
        .some((m) => m.blocks.some((b) => b.type === 'task_result' && b.toolUseId === block.toolUseId));
      if (already) {
        committed();
        return;
      }
      break;
    }
    let done: Promise<void> = Promise.resolve();
    await this.begin(conversationId, ready, async (turn) => {
      const message = ready.conversations.addMessage(
        conversationId,
        { turnId: turn.turnId, role: 'tool', blocks: [block] },
        full,
      );
      committed();
      this.options.emit('chatMessage', { conversationId, message });
      this.options.emit('conversationChanged', ready.conversations.get(conversationId));
      this.run(conversationId, turn, ready, await requireKey(ready.settings));
      done = turn.done;
      return { turnId: turn.turnId };
    });
    await done;
  }

  /** Claims the conversation's one turn slot at once (no await before it), so two sends can't both start. */
  private reserve(conversationId: string): ActiveTurn {
    if (this.active.has(conversationId)) {
      throw new HostError('conflict', 'Claude is still answering in this conversation; stop it first');
    }
    const turn: ActiveTurn = {
      turnId: randomUUID(),
      controller: new AbortController(),
      state: 'streaming',
      done: Promise.resolve(),
    };
    this.active.set(conversationId, turn);
    return turn;
  }

  /** Starts the agent loop of a reserved turn in the background; events report its progress. */
  private run(
    conversationId: string,
    turn: ActiveTurn,
    ready: Ready,
    apiKey: string,
    regenerateFrom?: string,
  ): void {
    const { baseUrl, maxIterations, toolSearch, pinnedTools } = ready.settings.settings();
    const conversation = ready.conversations.get(conversationId).settings;
    const model = conversation?.model ?? ready.settings.settings().model;
    const quirkKey = `${baseUrl}\u0000${model}`;
    const quirks = this.quirks.get(quirkKey) ?? {
      noToolSearch: false,
      noThinking: false,
      noContextManagement: false,
    };
    this.quirks.set(quirkKey, quirks);
    const client = new Anthropic({
      apiKey,
      baseURL: baseUrl,
      maxRetries: this.options.maxRetries ?? 2,
      // Sees each attempt's status, so the UI can show "retrying…" while the SDK backs off.
      fetch: async (url: string | URL | Request, init?: RequestInit) => {
        const response = await fetch(url, init);
        if (response.status === 429 || response.status >= 500) runner.retrying(response.status);
        return response;
      },
    });
    const runner: TurnRunner = new TurnRunner(
      {
        conversationId,
        turnId: turn.turnId,
        client,
        model,
        baseUrl,
        maxIterations,
        signal: turn.controller.signal,
        toolSearch,
        pinned: pinnedTools,
        conversation,
        quirks,
        contextWindow: contextWindowOf(model, this.models),
        firstParentId: regenerateFrom,
      },
      {
        store: ready.conversations,
        servers: this.options.servers,
        consent: ready.toolConsent,
        emit: this.options.emit,
        tasks: this.options.tasks,
        onState: (state) => {
          turn.state = state;
        },
      },
    );
    turn.done = runner.run().finally(() => {
      if (this.active.get(conversationId) === turn) this.active.delete(conversationId);
      try {
        ready.conversations.setRunningTurn(conversationId, null);
      } catch {
        // The database was closed (the host is shutting down) or the conversation deleted: nothing to clear.
      }
    });
  }

  /** Aborts a conversation's running turn and waits for it to end. */
  async stop(conversationId: string): Promise<void> {
    const turn = this.active.get(conversationId);
    if (!turn) return;
    turn.controller.abort();
    await turn.done;
  }

  /** Models from the models API when reachable, else the default list. */
  async listModels(): Promise<ModelList> {
    const settings = await this.options.persistence.settings();
    const list = await fetchModels(settings);
    if (list.source === 'api') this.models = list.models;
    return list;
  }
}

/** What the person reads where a turn was cut off by the host stopping. */
export const INTERRUPTED_TEXT =
  'Interrupted: the host stopped before Claude finished answering. Retry to ask again. ' +
  'If you send a new message instead, the unanswered one is left out of what Claude sees.';

/**
 * Turns a previous host started and never finished (it crashed or was
 * killed): each gets an "interrupted" notice, so the conversation says what
 * happened and offers Retry, and its mark is cleared.
 */
export function markInterrupted(conversations: ConversationStore): void {
  for (const { conversationId, turnId } of conversations.runningTurns()) {
    conversations.addMessage(conversationId, {
      turnId,
      role: 'notice',
      blocks: [{ type: 'notice', level: 'warning', kind: 'interrupted', text: INTERRUPTED_TEXT }],
    });
    conversations.setRunningTurn(conversationId, null);
  }
}

async function requireKey(settings: SettingsStore): Promise<string> {
  const key = await settings.apiKey();
  if (key === undefined) {
    throw new HostError('no_api_key', 'No API key is set. Add your Anthropic API key in Settings to chat.');
  }
  return key;
}

/** A message that is only an inserted prompt is titled after it ("/name"); only files, after the first. */
function promptTitle(attachments: readonly Attachment[]): string {
  const prompt = attachments.find((a) => a.type === 'prompt-message');
  if (prompt) return `/${prompt.prompt}`;
  const file = attachments.find((a) => a.type === 'document' || a.type === 'text-file');
  return file?.type === 'document' || file?.type === 'text-file' ? file.name : '';
}

function titleFrom(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}
