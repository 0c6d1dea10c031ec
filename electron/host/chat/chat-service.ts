import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import type { ChatBlock, TurnStarted, TurnState } from '../../../shared/model/chat.js';
import { DEFAULT_MODEL } from '../../../shared/model/settings.js';
import type { ModelList, Settings } from '../../../shared/model/settings.js';
import type { ConsentBroker } from '../consent/consent-broker.js';
import { HostError, describeError } from '../errors.js';
import type { HostEventSink } from '../ipc/handlers.js';
import type { Platform } from '../platform.js';
import type { ServerManager } from '../servers/server-manager.js';
import { ConsentStore } from '../store/consent-store.js';
import { ConversationStore } from '../store/conversation-store.js';
import { openDatabase } from '../store/database.js';
import type { Db } from '../store/database.js';
import { SettingsStore } from '../settings/settings-store.js';
import type { ChatHandlers } from './chat-handlers.js';
import { ToolConsent } from './tool-consent.js';
import { TurnRunner } from './turn-runner.js';

export const DATABASE_FILE_NAME = 'mcp-host.db';
const DEFAULT_TITLE = 'New conversation';

/** Shown in the model picker when the models API cannot be reached. */
const FALLBACK_MODELS: ModelList['models'] = [
  { id: DEFAULT_MODEL, displayName: 'Claude Sonnet 4.6' },
  { id: 'claude-opus-4-7', displayName: 'Claude Opus 4.7' },
  { id: 'claude-haiku-4-5', displayName: 'Claude Haiku 4.5' },
];

export interface ChatServiceOptions {
  platform: Platform;
  servers: ServerManager;
  broker: ConsentBroker;
  emit: HostEventSink;
  /** better_sqlite3.node built for Electron, when running inside Electron. */
  sqliteNativeBinding?: string | undefined;
  /** SDK retries for 429/529/5xx/network (default 2, the SDK's own default). */
  maxRetries?: number | undefined;
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
  consentStore: ConsentStore;
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
        const { conversations } = await this.open();
        await this.stop(id);
        conversations.delete(id);
        this.options.emit('conversationDeleted', { id });
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
      retryTurn: async ({ conversationId }) => {
        const { conversations } = await this.open();
        conversations.get(conversationId);
        return this.startTurn(conversationId);
      },
      listPolicies: async () => (await this.open()).consentStore.policies(),
      revokePolicy: async ({ id }) => {
        (await this.open()).consentStore.revoke(id);
        return null;
      },
      listAudit: async ({ limit, beforeId }) => (await this.open()).consentStore.audit(limit, beforeId),
      getToolResult: async ({ toolUseId }) => (await this.open()).conversations.fullToolResult(toolUseId),
    };
  }

  /** Stops every turn and closes the database. */
  async dispose(): Promise<void> {
    await Promise.all([...this.active.keys()].map((id) => this.stop(id)));
    const ready = this.ready;
    this.ready = undefined;
    if (ready) (await ready.catch(() => undefined))?.db.close();
  }

  private open(): Promise<Ready> {
    this.ready ??= this.init();
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
      this.ready = undefined;
      throw new HostError('internal', `Could not open the conversation database: ${describeError(error)}`);
    }
    const settings = new SettingsStore(platform);
    await settings.load();
    const conversations = new ConversationStore(db);
    const consentStore = new ConsentStore(db);
    return {
      db,
      conversations,
      consentStore,
      settings,
      toolConsent: new ToolConsent(this.options.broker, consentStore),
    };
  }

  private settingsChanged(settings: Settings): Settings {
    this.options.emit('settingsChanged', settings);
    return settings;
  }

  private async send(
    conversationId: string,
    text: string,
    attachments: { type: 'image'; mimeType: string; data: string }[],
  ): Promise<TurnStarted> {
    const { conversations, settings } = await this.open();
    const conversation = conversations.get(conversationId);
    if (this.active.has(conversationId)) {
      throw new HostError('conflict', 'Claude is still answering in this conversation; stop it first');
    }
    if ((await settings.apiKey()) === undefined) {
      throw new HostError('no_api_key', 'No API key is set. Add your Anthropic API key in Settings to chat.');
    }
    if (text.trim() === '' && attachments.length === 0)
      throw new HostError('invalid_params', 'The message is empty');
    const blocks: ChatBlock[] = [
      ...attachments.map((a): ChatBlock => ({ type: 'image', mimeType: a.mimeType, data: a.data })),
      ...(text.trim() !== '' ? [{ type: 'text' as const, text }] : []),
    ];
    const turnId = randomUUID();
    const userMessage = conversations.addMessage(conversationId, { turnId, role: 'user', blocks });
    this.options.emit('chatMessage', { conversationId, message: userMessage });
    if (conversation.title === DEFAULT_TITLE && text.trim() !== '') {
      conversations.rename(conversationId, titleFrom(text));
    }
    this.options.emit('conversationChanged', conversations.get(conversationId));
    await this.startTurn(conversationId, turnId);
    return { turnId, userMessage };
  }

  private async startTurn(conversationId: string, turnId: string = randomUUID()): Promise<TurnStarted> {
    const ready = await this.open();
    if (this.active.has(conversationId)) {
      throw new HostError('conflict', 'Claude is still answering in this conversation; stop it first');
    }
    const apiKey = await ready.settings.apiKey();
    if (apiKey === undefined) {
      throw new HostError('no_api_key', 'No API key is set. Add your Anthropic API key in Settings to chat.');
    }
    const { baseUrl, model, maxIterations } = ready.settings.settings();
    const controller = new AbortController();
    const turn: ActiveTurn = { turnId, controller, state: 'streaming', done: Promise.resolve() };
    const client = new Anthropic({
      apiKey,
      baseURL: baseUrl,
      maxRetries: this.options.maxRetries ?? 2,
      fetch: async (url: string | URL | Request, init?: RequestInit) => {
        const response = await fetch(url, init);
        if (response.status === 429 || response.status >= 500) runner.retrying(response.status);
        return response;
      },
    });
    const runner: TurnRunner = new TurnRunner(
      { conversationId, turnId, client, model, baseUrl, maxIterations, signal: controller.signal },
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
    this.active.set(conversationId, turn);
    turn.done = runner.run().finally(() => {
      if (this.active.get(conversationId) === turn) this.active.delete(conversationId);
    });
    return { turnId };
  }

  private async stop(conversationId: string): Promise<void> {
    const turn = this.active.get(conversationId);
    if (!turn) return;
    turn.controller.abort();
    await turn.done;
  }

  private async listModels(): Promise<ModelList> {
    const { settings } = await this.open();
    const apiKey = await settings.apiKey();
    if (apiKey === undefined)
      return { models: FALLBACK_MODELS, source: 'default', error: 'No API key is set' };
    const client = new Anthropic({
      apiKey,
      baseURL: settings.settings().baseUrl,
      maxRetries: 0,
      timeout: 10_000,
    });
    try {
      const models: ModelList['models'] = [];
      for await (const model of client.models.list({ limit: 100 })) {
        models.push({ id: model.id, displayName: model.display_name, createdAt: model.created_at });
        if (models.length >= 500) break;
      }
      return models.length > 0
        ? { models, source: 'api' }
        : { models: FALLBACK_MODELS, source: 'default', error: 'The models API returned no models' };
    } catch (error) {
      return { models: FALLBACK_MODELS, source: 'default', error: describeError(error) };
    }
  }
}

function titleFrom(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}
