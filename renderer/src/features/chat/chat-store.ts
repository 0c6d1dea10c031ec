import { createStore } from 'zustand/vanilla';
import type { StoreApi } from 'zustand/vanilla';
import type { HostConnection } from '../../bridge/connection.js';
import type { HostApi } from '../../../../shared/ipc/host-api.js';
import type { Result } from '../../../../shared/ipc/result.js';
import type { ChatDeltaEvent, TurnStarted } from '../../../../shared/model/chat.js';
import { createFrameBatcher } from './frame-batcher.js';
import type { FrameScheduler } from './frame-batcher.js';
import {
  applyDeltas,
  applyMessage,
  applyTurnState,
  patchConversation,
  reconcileLoaded,
  removeConversation,
  upsertSummary,
} from './chat-reducers.js';
import type { ChatActions, ChatState } from './chat-state.js';
import { taskNotice } from './task-notices.js';

/** The state after sendMessage/retryTurn/editMessage/regenerateAnswer answered: the turn streams, or why it could not start. */
function startedTurn(s: ChatState, id: string, result: Result<TurnStarted>): Partial<ChatState> {
  if (!result.ok) return patchConversation(s, id, () => ({ requestError: result.error }), true);
  const userMessage = result.value.userMessage;
  const withMessage = userMessage ? applyMessage(s, id, userMessage) : {};
  return patchConversation({ details: withMessage.details ?? s.details }, id, (view) => ({
    // The turn's first state event may already have arrived; don't step back.
    turn:
      view.turn?.turnId === result.value.turnId
        ? view.turn
        : { turnId: result.value.turnId, state: 'streaming', error: undefined, canRetry: false },
  }));
}

export interface ChatStore {
  readonly store: StoreApi<ChatState>;
  dispose(): void;
}

/**
 * The chat's store: settings, conversations, the opened conversations'
 * messages, streaming text and tool-call progress. Streamed deltas are applied
 * once per animation frame; everything else as it arrives. After every
 * (re)connect it reloads settings, the conversation list and the open
 * conversation, since events may have been missed.
 */
export function createChatStore(
  host: HostApi,
  connection: HostConnection,
  schedule?: FrameScheduler,
): ChatStore {
  const store = createStore<ChatState>()((set, get) => {
    let searchSeq = 0;

    async function loadConversation(id: string): Promise<void> {
      set((s) => patchConversation(s, id, () => ({ loading: true, loadError: undefined }), true));
      const result = await host.getConversation({ id });
      set((s) =>
        patchConversation(
          s,
          id,
          (view) =>
            result.ok
              ? { loading: false, ...reconcileLoaded(view, result.value) }
              : { loading: false, loadError: result.error },
          true,
        ),
      );
    }

    async function ensureConversation(): Promise<Result<string>> {
      const selected = get().selectedId;
      if (selected !== undefined) return { ok: true, value: selected };
      const created = await actions.createConversation();
      return created.ok ? { ok: true, value: created.value.id } : created;
    }

    const actions: ChatActions = {
      setView(view) {
        set({ view });
      },
      reloadConversation(id) {
        return loadConversation(id);
      },
      selectConversation(id) {
        set((s) => ({ selectedId: id, taskNotices: s.taskNotices.filter((n) => n.conversationId !== id) }));
        const view = get().details[id];
        if (!view || view.loadError) void loadConversation(id);
      },
      async createConversation() {
        const result = await host.createConversation({});
        if (result.ok) {
          const summary = result.value;
          set((s) => ({
            conversations: upsertSummary(s.conversations, summary),
            selectedId: summary.id,
            searchQuery: '',
            searchResults: undefined,
            ...patchConversation(s, summary.id, () => ({}), true),
          }));
        }
        return result;
      },
      async renameConversation(id, title) {
        const result = await host.renameConversation({ id, title });
        if (result.ok) {
          const summary = result.value;
          set((s) => ({
            conversations: upsertSummary(s.conversations, summary),
            searchResults: s.searchResults?.map((c) => (c.id === id ? summary : c)),
          }));
        }
        return result;
      },
      async deleteConversation(id) {
        const result = await host.deleteConversation({ id });
        if (result.ok) set((s) => removeConversation(s, id));
        return result;
      },
      search(query) {
        const seq = ++searchSeq;
        set({ searchQuery: query });
        if (query.trim() === '') {
          set({ searchResults: undefined });
          return;
        }
        void host.listConversations({ query: query.trim() }).then((result) => {
          // An older query's answer arriving late must not replace a newer one's.
          if (seq !== searchSeq) return;
          set({ searchResults: result.ok ? result.value : [] });
        });
      },
      async send(text, attachments = []) {
        // Known to have no key: say so, and don't create an empty conversation on the way.
        if (get().settings?.apiKey.set === false) {
          const error = {
            code: 'no_api_key' as const,
            message: 'Add your Anthropic API key in Settings to chat.',
          };
          const selected = get().selectedId;
          if (selected !== undefined) {
            set((s) => patchConversation(s, selected, () => ({ requestError: error }), true));
          }
          return { ok: false, error };
        }
        const target = await ensureConversation();
        if (!target.ok) return target;
        const id = target.value;
        set((s) => patchConversation(s, id, () => ({ requestError: undefined }), true));
        const result = await host.sendMessage({
          conversationId: id,
          text,
          ...(attachments.length > 0 ? { attachments: [...attachments] } : {}),
        });
        set((s) => startedTurn(s, id, result));
        return result;
      },
      async stop() {
        const id = get().selectedId;
        if (id === undefined) return;
        const result = await host.stopTurn({ conversationId: id });
        if (!result.ok) set((s) => patchConversation(s, id, () => ({ requestError: result.error })));
      },
      dismissTaskNotice(messageId) {
        set((s) => ({ taskNotices: s.taskNotices.filter((n) => n.messageId !== messageId) }));
      },
      async retry() {
        const id = get().selectedId;
        if (id === undefined) return;
        set((s) => patchConversation(s, id, () => ({ requestError: undefined })));
        const result = await host.retryTurn({ conversationId: id });
        set((s) => startedTurn(s, id, result));
      },
      async editMessage(messageId, text) {
        const id = get().selectedId;
        if (id === undefined)
          return { ok: false, error: { code: 'invalid_params', message: 'No conversation' } };
        set((s) => patchConversation(s, id, () => ({ requestError: undefined })));
        const result = await host.editMessage({ conversationId: id, messageId, text });
        set((s) => startedTurn(s, id, result));
        return result;
      },
      async regenerate() {
        const id = get().selectedId;
        if (id === undefined)
          return { ok: false, error: { code: 'invalid_params', message: 'No conversation' } };
        set((s) => patchConversation(s, id, () => ({ requestError: undefined })));
        const result = await host.regenerateAnswer({ conversationId: id });
        set((s) => startedTurn(s, id, result));
        return result;
      },
      async switchBranch(messageId) {
        const id = get().selectedId;
        if (id === undefined)
          return { ok: false, error: { code: 'invalid_params', message: 'No conversation' } };
        const result = await host.switchBranch({ conversationId: id, messageId });
        set((s) =>
          result.ok
            ? patchConversation(s, id, () => ({ messages: result.value.messages, requestError: undefined }))
            : patchConversation(s, id, () => ({ requestError: result.error })),
        );
        return result;
      },
      async setConversationSettings(id, settings) {
        const result = await host.setConversationSettings({ id, settings });
        if (result.ok) {
          const summary = result.value;
          set((s) => ({ conversations: upsertSummary(s.conversations, summary) }));
        }
        return result;
      },
      exportConversation(id, format, folder) {
        return host.exportConversation({
          id,
          format,
          ...(folder !== undefined && folder !== '' ? { folder } : {}),
        });
      },
      async setToolPinned(server, tool, pinned) {
        const result = await host.setToolPinned({ server, tool, pinned });
        if (result.ok) set({ settings: result.value });
        return result;
      },
      getToolResult(toolUseId) {
        return host.getToolResult({ toolUseId });
      },
      async saveSettings(update) {
        const result = await host.updateSettings(update);
        if (result.ok) set({ settings: result.value });
        return result;
      },
      async setApiKey(key) {
        const result = await host.setApiKey({ key });
        if (result.ok) set({ settings: result.value });
        return result;
      },
      async clearApiKey() {
        const result = await host.clearApiKey({});
        if (result.ok) set({ settings: result.value });
        return result;
      },
      async loadModels() {
        set({ modelsLoading: true });
        const result = await host.listModels({});
        set({ modelsLoading: false, ...(result.ok ? { models: result.value } : {}) });
      },
      async loadAudit() {
        const result = await host.listAudit({ limit: 200 });
        if (result.ok) set({ audit: result.value });
      },
    };

    return {
      view: 'chat',
      settings: undefined,
      settingsError: undefined,
      models: undefined,
      modelsLoading: false,
      conversations: [],
      conversationsLoaded: false,
      searchQuery: '',
      searchResults: undefined,
      selectedId: undefined,
      details: {},
      toolCalls: {},
      audit: undefined,
      taskNotices: [],
      actions,
    };
  });

  const { setState, getState } = store;
  const deltas = createFrameBatcher<ChatDeltaEvent>((items) => {
    setState((s) => applyDeltas(s, items));
  }, schedule);

  async function load(): Promise<void> {
    const [settings, conversations] = await Promise.all([host.getSettings({}), host.listConversations({})]);
    setState((s) => ({
      ...(settings.ok
        ? { settings: settings.value, settingsError: undefined }
        : { settingsError: settings.error }),
      ...(conversations.ok
        ? {
            conversations: conversations.value,
            conversationsLoaded: true,
            selectedId: s.selectedId ?? conversations.value[0]?.id,
          }
        : {}),
    }));
    // Events may have been missed (or the host restarted): conversations open on
    // this page are read again. The selected one and any with a turn in flight
    // now; the others are forgotten and read when next opened.
    const { selectedId, details } = getState();
    const reload = Object.entries(details)
      .filter(([id, view]) => id === selectedId || view.turn !== undefined || view.streaming !== undefined)
      .map(([id]) => id);
    setState({ details: Object.fromEntries(Object.entries(details).filter(([id]) => reload.includes(id))) });
    if (selectedId !== undefined && !reload.includes(selectedId)) reload.push(selectedId);
    for (const id of reload) void getState().actions.reloadConversation(id);
  }

  const unsubscribes = [
    host.on('settingsChanged', (settings) => {
      setState({ settings });
    }),
    host.on('conversationChanged', (summary) => {
      setState((s) => ({
        conversations: upsertSummary(s.conversations, summary),
        searchResults: s.searchResults?.map((c) =>
          c.id === summary.id ? { ...summary, snippet: c.snippet } : c,
        ),
      }));
    }),
    host.on('conversationDeleted', ({ id }) => {
      setState((s) => removeConversation(s, id));
    }),
    host.on('chatDelta', (delta) => {
      deltas.push(delta);
    }),
    host.on('chatMessage', ({ conversationId, message }) => {
      // Streamed text still waiting for a frame belongs before the committed message.
      deltas.flushNow();
      setState((s) => ({
        ...applyMessage(s, conversationId, message),
        ...taskNotice(s, conversationId, message),
      }));
    }),
    host.on('toolCallUpdate', (update) => {
      setState((s) => ({ toolCalls: { ...s.toolCalls, [update.toolUseId]: update } }));
    }),
    host.on('turnState', (event) => {
      deltas.flushNow();
      setState((s) => applyTurnState(s, event));
    }),
    host.on('usage', ({ conversationId, turn, conversation }) => {
      setState((s) => ({
        ...patchConversation(s, conversationId, () => ({ turnUsage: turn })),
        conversations: s.conversations.map((c) =>
          c.id === conversationId ? { ...c, usage: conversation } : c,
        ),
      }));
    }),
    connection.subscribe((state) => {
      if (state === 'connected') void load();
    }),
  ];
  if (connection.getState() === 'connected') void load();

  return {
    store,
    dispose() {
      for (const unsubscribe of unsubscribes) unsubscribe();
    },
  };
}
