import type { HostErrorValue, Result } from '../../../../shared/ipc/result.js';
import type {
  Attachment,
  AuditEntry,
  ChatErrorCode,
  ChatMessage,
  ConversationDetail,
  ConversationSummary,
  FullToolResult,
  ToolCallUpdateEvent,
  TurnState,
  Usage,
} from '../../../../shared/model/chat.js';
import type { ConversationSettings } from '../../../../shared/model/conversation-settings.js';
import type { ModelList, Settings, UpdateSettings } from '../../../../shared/model/settings.js';

/** The places of the left rail. */
export type View = 'chat' | 'servers' | 'browse' | 'tasks' | 'settings';

/** The turn a conversation is in (or last ended with). */
export interface TurnView {
  readonly turnId: string;
  readonly state: TurnState;
  readonly error: { readonly code: ChatErrorCode; readonly message: string } | undefined;
  readonly canRetry: boolean;
}

/** Text of the assistant message being streamed, not yet committed. */
export interface StreamingText {
  readonly messageId: string;
  readonly turnId: string;
  readonly text: string;
  /** Claude's thinking so far (streamed before the answer). */
  readonly thinking: string;
  /**
   * The turn ended without committing this text (the host stopped while it
   * streamed): kept on this page so it can still be read, marked as cut off.
   */
  readonly cutOff?: boolean;
}

/** One opened conversation. */
export interface ConversationView {
  readonly loading: boolean;
  readonly loadError: HostErrorValue | undefined;
  /** Committed messages, oldest first. */
  readonly messages: readonly ChatMessage[];
  readonly streaming: StreamingText | undefined;
  readonly turn: TurnView | undefined;
  /** Tokens and cost of the latest turn. */
  readonly turnUsage: Usage | undefined;
  /** Why the last send/stop/retry request was refused. */
  readonly requestError: HostErrorValue | undefined;
}

export interface ChatData {
  readonly view: View;
  readonly settings: Settings | undefined;
  readonly settingsError: HostErrorValue | undefined;
  readonly models: ModelList | undefined;
  readonly modelsLoading: boolean;
  /** Newest first. */
  readonly conversations: readonly ConversationSummary[];
  readonly conversationsLoaded: boolean;
  readonly searchQuery: string;
  /** The host's matches for searchQuery (undefined when not searching). */
  readonly searchResults: readonly ConversationSummary[] | undefined;
  readonly selectedId: string | undefined;
  readonly details: Readonly<Record<string, ConversationView>>;
  /** Live state of tool calls, by tool_use id. */
  readonly toolCalls: Readonly<Record<string, ToolCallUpdateEvent>>;
  readonly audit: readonly AuditEntry[] | undefined;
  /** Tasks whose end continued a conversation the person was not looking at, oldest first. */
  readonly taskNotices: readonly TaskNotice[];
}

/** "Task … finished — the answer continues in …", until the person goes there or dismisses it. */
export interface TaskNotice {
  readonly conversationId: string;
  readonly messageId: string;
  readonly tool: string;
}

export interface ChatActions {
  setView: (view: View) => void;
  selectConversation: (id: string) => void;
  /** Reads a conversation again from the host (after a reconnect), reconciling what the page held. */
  reloadConversation: (id: string) => Promise<void>;
  createConversation: () => Promise<Result<ConversationSummary>>;
  renameConversation: (id: string, title: string) => Promise<Result<ConversationSummary>>;
  deleteConversation: (id: string) => Promise<Result<null>>;
  search: (query: string) => void;
  /** Sends in the selected conversation (creating one first if none is selected), with its attachments. */
  send: (text: string, attachments?: readonly Attachment[]) => Promise<Result<unknown>>;
  stop: () => Promise<void>;
  dismissTaskNotice: (messageId: string) => void;
  retry: () => Promise<void>;
  /** Sends an earlier message of the selected conversation again with new text (a new branch). */
  editMessage: (messageId: string, text: string) => Promise<Result<unknown>>;
  /** Answers the last message of the selected conversation again (a new branch). */
  regenerate: () => Promise<Result<unknown>>;
  /** Shows the branch a message of the selected conversation is on. */
  switchBranch: (messageId: string) => Promise<Result<ConversationDetail>>;
  setConversationSettings: (
    id: string,
    settings: ConversationSettings,
  ) => Promise<Result<ConversationSummary>>;
  exportConversation: (
    id: string,
    format: 'markdown' | 'json',
    folder?: string,
  ) => Promise<Result<{ path: string }>>;
  setToolPinned: (server: string, tool: string, pinned: boolean) => Promise<Result<Settings>>;
  getToolResult: (toolUseId: string) => Promise<Result<FullToolResult>>;
  saveSettings: (update: UpdateSettings) => Promise<Result<Settings>>;
  setApiKey: (key: string) => Promise<Result<Settings>>;
  clearApiKey: () => Promise<Result<Settings>>;
  loadModels: () => Promise<void>;
  loadAudit: () => Promise<void>;
}

export interface ChatState extends ChatData {
  readonly actions: ChatActions;
}

export const emptyConversationView: ConversationView = {
  loading: false,
  loadError: undefined,
  messages: [],
  streaming: undefined,
  turn: undefined,
  turnUsage: undefined,
  requestError: undefined,
};
