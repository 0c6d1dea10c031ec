import { createContext, useContext } from 'react';
import type { ReactNode } from 'react';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import type { LogsState } from './logs-store.js';

const LogsContext = createContext<StoreApi<LogsState> | null>(null);

/** Makes the logs store available to the components below. */
export function LogsStoreProvider({ store, children }: { store: StoreApi<LogsState>; children: ReactNode }) {
  return <LogsContext.Provider value={store}>{children}</LogsContext.Provider>;
}

/** Reads a slice of the logs state; selectors must return stable values. */
export function useLogs<T>(selector: (state: LogsState) => T): T {
  const store = useContext(LogsContext);
  if (!store) throw new Error('useLogs must be used inside <LogsStoreProvider>');
  return useStore(store, selector);
}
