import type {
  ChatDeltaEvent,
  ChatMessage,
  ConversationDetail,
  ConversationSummary,
  TurnStateEvent,
} from '../../../../shared/model/chat.js';
import type { ChatData, ConversationView } from './chat-state.js';
import { emptyConversationView } from './chat-state.js';

type Patch = Partial<ChatData>;

/** Turn states after which nothing streams any more. */
const FINISHED = new Set(['done', 'stopped', 'error']);

/** Inserts or replaces a summary, keeping the list newest first. */
export function upsertSummary(
  list: readonly ConversationSummary[],
  summary: ConversationSummary,
): ConversationSummary[] {
  const rest = list.filter((c) => c.id !== summary.id);
  const index = rest.findIndex((c) => c.updatedAt <= summary.updatedAt);
  if (index === -1) return [...rest, summary];
  return [...rest.slice(0, index), summary, ...rest.slice(index)];
}

/** Changes one opened conversation; conversations that are not open are left alone. */
export function patchConversation(
  state: Pick<ChatData, 'details'>,
  id: string,
  patch: (view: ConversationView) => Partial<ConversationView>,
  open = false,
): Patch {
  const current = state.details[id] ?? (open ? emptyConversationView : undefined);
  if (!current) return {};
  return { details: { ...state.details, [id]: { ...current, ...patch(current) } } };
}

/** Appends batched deltas (several events) to the streaming text of their conversations. */
export function applyDeltas(state: Pick<ChatData, 'details'>, deltas: readonly ChatDeltaEvent[]): Patch {
  let details = state.details;
  for (const delta of deltas) {
    const view = details[delta.conversationId];
    if (!view) continue;
    const same = view.streaming?.messageId === delta.messageId ? view.streaming : undefined;
    const thinking = delta.kind === 'thinking';
    details = {
      ...details,
      [delta.conversationId]: {
        ...view,
        streaming: {
          messageId: delta.messageId,
          turnId: delta.turnId,
          text: (same?.text ?? '') + (thinking ? '' : delta.text),
          thinking: (same?.thinking ?? '') + (thinking ? delta.text : ''),
        },
      },
    };
  }
  return details === state.details ? {} : { details };
}

/**
 * A committed message: replaces its streamed text, or a message with the
 * same id. A message that follows an earlier one than the last (an edit, a
 * regenerated answer) starts a new branch: the view shows that branch.
 */
export function applyMessage(
  state: Pick<ChatData, 'details'>,
  conversationId: string,
  message: ChatMessage,
): Patch {
  return patchConversation(state, conversationId, (view) => {
    const known = view.messages.findIndex((m) => m.id === message.id);
    const messages =
      known !== -1
        ? view.messages.map((m, i) => (i === known ? message : m))
        : [...branchBefore(view.messages, message), message];
    return {
      messages,
      streaming: view.streaming?.messageId === message.id ? undefined : view.streaming,
    };
  });
}

/**
 * The messages a new message follows: up to its parent (all, when the
 * parent is the last or unknown). A first message with other versions (the
 * first message, edited) starts the conversation over.
 */
function branchBefore(messages: readonly ChatMessage[], message: ChatMessage): readonly ChatMessage[] {
  const parentId = message.parentId;
  if (parentId === undefined) return message.branch !== undefined ? [] : messages;
  const at = messages.findIndex((m) => m.id === parentId);
  return at === -1 || at === messages.length - 1 ? messages : messages.slice(0, at + 1);
}

export function applyTurnState(state: Pick<ChatData, 'details'>, event: TurnStateEvent): Patch {
  return patchConversation(state, event.conversationId, (view) => ({
    turn: {
      turnId: event.turnId,
      state: event.state,
      error: event.error,
      canRetry: event.canRetry,
    },
    // A stopped or failed turn drops its partial answer (the host does not keep it).
    streaming: FINISHED.has(event.state) ? undefined : view.streaming,
    turnUsage: view.turn?.turnId === event.turnId ? view.turnUsage : undefined,
  }));
}

/** Removes a conversation and picks its neighbour when it was selected. */
export function removeConversation(
  state: Pick<ChatData, 'conversations' | 'searchResults' | 'selectedId' | 'details'>,
  id: string,
): Patch {
  const index = state.conversations.findIndex((c) => c.id === id);
  const conversations = state.conversations.filter((c) => c.id !== id);
  const { [id]: _removed, ...details } = state.details;
  const selectedId =
    state.selectedId === id
      ? (conversations[Math.min(Math.max(index, 0), conversations.length - 1)]?.id ?? undefined)
      : state.selectedId;
  return {
    conversations,
    searchResults: state.searchResults?.filter((c) => c.id !== id),
    details,
    selectedId,
  };
}

/**
 * A conversation as the host reports it, laid over what the page held. A
 * turn the page saw running that the host no longer runs ended while the
 * page was not listening (a lost connection, a restarted host): its state is
 * dropped (no Stop for a turn that is gone), and text it streamed that was
 * never committed stays visible, marked as cut off.
 */
export function reconcileLoaded(
  view: ConversationView,
  detail: ConversationDetail,
): Partial<ConversationView> {
  const active = detail.activeTurn;
  if (active) {
    return {
      messages: detail.messages,
      turn: { turnId: active.turnId, state: active.state, error: undefined, canRetry: false },
    };
  }
  const wasRunning = view.turn !== undefined && !FINISHED.has(view.turn.state);
  const streaming = view.streaming;
  const committed = streaming !== undefined && detail.messages.some((m) => m.id === streaming.messageId);
  return {
    messages: detail.messages,
    turn: wasRunning ? undefined : view.turn,
    streaming: streaming && !committed && streaming.text !== '' ? { ...streaming, cutOff: true } : undefined,
  };
}
