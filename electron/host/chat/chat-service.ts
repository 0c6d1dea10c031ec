import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import type {
  Attachment,
  ChatBlock,
  ChatMessage,
  TurnStarted,
  TurnState,
} from '../../../shared/model/chat.js';
import { contextWindowOf } from '../../../shared/model/context-window.js';
import type { ModelInfo, ModelList, Settings } from '../../../shared/model/settings.js';
import type { ConsentBroker } from '../consent/consent-broker.js';
import { HostError, describeError } from '../errors.js';
import type { HostEventSink } from '../ipc/handlers.js';
import type { Platform } from '../platform.js';
import type { ServerManager } from '../servers/server-manager.js';
import { ConsentAudit } from '../store/consent-audit.js';
import { ConsentRuleStore } from '../store/consent-rule-store.js';
import { ConversationStore } from '../store/conversation-store.js';
import { openDatabase } from '../store/database.js';
import type { Db } from '../store/database.js';
import { SettingsStore } from '../settings/settings-store.js';
import type { ChatHandlers } from './chat-handlers.js';
import { auditUserCall, consentRuleHandlers } from './consent-rule-handlers.js';
import { writeConversationExport } from './conversation-export.js';
import { fetchModels } from './model-list.js';
import { userMessageBlocks } from './message-context.js';
import type { EndpointQuirks } from './model-request.js';
import { ToolConsent } from './tool-consent.js';
import { TurnRunner } from './turn-runner.js';

export const DATABASE_FILE_NAME = 'mcp-host.db';
const DEFAULT_TITLE = 'New conversation';

export interface ChatServiceOptions {
  platform: Platform;
  servers: ServerManager;
  broker: ConsentBroker;
  emit: HostEventSink;
  /** better_sqlite3.node built for Electron, when running inside Electron. */
  sqliteNativeBinding?: string | undefined;
  /** SDK retries for 429/529/5xx/network (default 2, the SDK's own default). */
  maxRetries?: number | undefined;
  /** MCP Apps' latest model-context updates, added before the next user message (and then cleared). */
  appContext?: { take(conversationId: string): ChatBlock[] } | undefined;
}

interface ActiveTurn {
  turnId: string;
  controller: AbortController;
  state: TurnState;
  done: Promise<void>;
}

interface Ready {
  db: Db;
  conversations: ConversationStore;
  rules: ConsentRuleStore;
  audit: ConsentAudit;
  settings: SettingsStore;
  toolConsent: ToolConsent;
}

/**
 * Chat with Claude: settings (the API key stays here), conversations in
 * SQLite, and at most one running turn per conversation. The database and
 * settings are opened on first use, so CLI commands that never chat never
 * touch them.
 */
export class ChatService {
  private ready: Promise<Ready> | undefined;
  private readonly active = new Map<string, ActiveTurn>();
  /** What each endpoint + model refused (tool search, thinking, context management), for this run. */
  private readonly quirks = new Map<string, EndpointQuirks>();
  /** Models as the models API last described them (context windows). */
  private models: readonly ModelInfo[] | undefined;

  constructor(private readonly options: ChatServiceOptions) {}

  handlers(): ChatHandlers {
    return {
      getSettings: async () => (await this.open()).settings.settings(),
      updateSettings: async (patch) => this.settingsChanged(await (await this.open()).settings.update(patch)),
      setApiKey: async ({ key }) => this.settingsChanged(await (await this.open()).settings.setApiKey(key)),
      clearApiKey: async () => this.settingsChanged(await (await this.open()).settings.clearApiKey()),
      listModels: () => this.listModels(),
      listConversations: async ({ query }) => (await this.open()).conversations.list(query),
      createConversation: async ({ title }) => {
        const summary = (await this.open()).conversations.create(
          title !== undefined && title !== '' ? title : DEFAULT_TITLE,
        );
        this.options.emit('conversationChanged', summary);
        return summary;
      },
      renameConversation: async ({ id, title }) => {
        const summary = (await this.open()).conversations.rename(id, title);
        this.options.emit('conversationChanged', summary);
        return summary;
      },
      deleteConversation: async ({ id }) => {
        const { conversations, rules } = await this.open();
        await this.stop(id);
        const hadRules = rules.list().rules.some((r) => r.conversationId === id);
        conversations.delete(id);
        this.options.emit('conversationDeleted', { id });
        // Its "allow for this conversation" rules went with it (ON DELETE CASCADE).
        if (hadRules) this.options.emit('policiesChanged', rules.list());
        return null;
      },
      getConversation: async ({ id }) => {
        const { conversations } = await this.open();
        const turn = this.active.get(id);
        return {
          conversation: conversations.get(id),
          messages: conversations.messages(id),
          ...(turn ? { activeTurn: { turnId: turn.turnId, state: turn.state } } : {}),
        };
      },
      sendMessage: ({ conversationId, text, attachments }) =>
        this.send(conversationId, text, attachments ?? []),
      stopTurn: async ({ conversationId }) => {
        await this.stop(conversationId);
        return null;
      },
      retryTurn: ({ conversationId }) => this.retry(conversationId),
      ...consentRuleHandlers(() => this.open(), this.options.servers, this.options.emit),
      getToolResult: async ({ toolUseId }) => (await this.open()).conversations.fullToolResult(toolUseId),
      editMessage: ({ conversationId, messageId, text }) => this.edit(conversationId, messageId, text),
      regenerateAnswer: ({ conversationId }) => this.regenerate(conversationId),
      switchBranch: async ({ conversationId, messageId }) => {
        const { conversations } = await this.open();
        if (this.active.has(conversationId)) {
          throw new HostError('conflict', 'Claude is still answering in this conversation; stop it first');
        }
        conversations.switchBranch(conversationId, messageId);
        return {
          conversation: conversations.get(conversationId),
          messages: conversations.messages(conversationId),
        };
      },
      setConversationSettings: async ({ id, settings }) => {
        const summary = (await this.open()).conversations.setSettings(id, settings);
        this.options.emit('conversationChanged', summary);
        return summary;
      },
      exportConversation: async ({ id, format, folder }) => {
        const { conversations } = await this.open();
        return writeConversationExport(
          { conversation: conversations.get(id), messages: conversations.messages(id) },
          format,
          folder,
        );
      },
      setToolPinned: async ({ server, tool, pinned }) =>
        this.settingsChanged(await (await this.open()).settings.setToolPinned({ server, tool }, pinned)),
    };
  }

  /** Stops every turn and closes the database. */
  async dispose(): Promise<void> {
    await Promise.all([...this.active.keys()].map((id) => this.stop(id)));
    const ready = this.ready;
    this.ready = undefined;
    if (ready) (await ready.catch(() => undefined))?.db.close();
  }

  /** The consent gate of tool calls (MCP Apps' calls go through it too). */
  async toolConsent(): Promise<ToolConsent> {
    return (await this.open()).toolConsent;
  }

  /** Writes a tool call the person makes from the Servers view to the audit trail. */
  auditUserCall(call: { server: string; tool: string; argumentsJson: string }): Promise<void> {
    return auditUserCall(() => this.open(), this.options.servers, call);
  }

  /** The settings holding the Claude key and base URL (sampling uses them too). */
  async claudeSettings(): Promise<SettingsStore> {
    return (await this.open()).settings;
  }

  private open(): Promise<Ready> {
    if (!this.ready) {
      const opening = this.init();
      this.ready = opening;
      // A failure (e.g. the SQLite addon does not load) is reported, and the next request tries again.
      opening.catch(() => {
        if (this.ready === opening) this.ready = undefined;
      });
    }
    return this.ready;
  }

  private async init(): Promise<Ready> {
    const { platform } = this.options;
    let db: Db;
    try {
      db = openDatabase(join(platform.userDataDir(), DATABASE_FILE_NAME), {
        nativeBinding: this.options.sqliteNativeBinding,
      });
    } catch (error) {
      throw new HostError('internal', `Could not open the conversation database: ${describeError(error)}`);
    }
    const settings = new SettingsStore(platform);
    await settings.load();
    const conversations = new ConversationStore(db);
    markInterrupted(conversations);
    const rules = new ConsentRuleStore(db);
    const audit = new ConsentAudit(db);
    const { servers, broker, emit } = this.options;
    return {
      db,
      conversations,
      rules,
      audit,
      settings,
      toolConsent: new ToolConsent({
        broker,
        rules,
        audit,
        identityOf: (name) => servers.get(name).identity,
        onRulesChanged: () => {
          emit('policiesChanged', rules.list());
        },
      }),
    };
  }

  private settingsChanged(settings: Settings): Settings {
    this.options.emit('settingsChanged', settings);
    return settings;
  }

  private async send(conversationId: string, text: string, attachments: Attachment[]): Promise<TurnStarted> {
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

  private async retry(conversationId: string): Promise<TurnStarted> {
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
  private async edit(conversationId: string, messageId: string, text: string): Promise<TurnStarted> {
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
  private async regenerate(conversationId: string): Promise<TurnStarted> {
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

  private async stop(conversationId: string): Promise<void> {
    const turn = this.active.get(conversationId);
    if (!turn) return;
    turn.controller.abort();
    await turn.done;
  }

  private async listModels(): Promise<ModelList> {
    const { settings } = await this.open();
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
function markInterrupted(conversations: ConversationStore): void {
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
