import { createContext, useContext } from 'react';
import type { ReactNode } from 'react';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import type { ChatActions, ChatState } from './chat-state.js';

const ChatContext = createContext<StoreApi<ChatState> | null>(null);

/** Makes the chat store available to the components below. */
export function ChatStoreProvider({ store, children }: { store: StoreApi<ChatState>; children: ReactNode }) {
  return <ChatContext.Provider value={store}>{children}</ChatContext.Provider>;
}

function useChatStoreApi(): StoreApi<ChatState> {
  const store = useContext(ChatContext);
  if (!store) throw new Error('useChat must be used inside <ChatStoreProvider>');
  return store;
}

/** Reads a slice of the chat state; selectors must return stable values. */
export function useChat<T>(selector: (state: ChatState) => T): T {
  return useStore(useChatStoreApi(), selector);
}

/** The chat store's actions (a stable object). */
export function useChatActions(): ChatActions {
  return useStore(useChatStoreApi(), (s) => s.actions);
}
