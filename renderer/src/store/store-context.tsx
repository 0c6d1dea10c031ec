import { createContext, useContext } from 'react';
import type { ReactNode } from 'react';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import type { AppActions, AppState } from './app-state.js';

const StoreContext = createContext<StoreApi<AppState> | null>(null);

/** Makes the app store available to the components below. */
export function StoreProvider({ store, children }: { store: StoreApi<AppState>; children: ReactNode }) {
  return <StoreContext.Provider value={store}>{children}</StoreContext.Provider>;
}

function useAppStoreApi(): StoreApi<AppState> {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useAppState must be used inside <StoreProvider>');
  return store;
}

/**
 * Reads a slice of the state. Components get values, never setState: every
 * change goes through an action. Selectors must return stable values
 * (state fields, not new objects).
 */
export function useAppState<T>(selector: (state: AppState) => T): T {
  return useStore(useAppStoreApi(), selector);
}

/** The store's actions (a stable object). */
export function useActions(): AppActions {
  return useStore(useAppStoreApi(), (s) => s.actions);
}

/**
 * Whether the host answers now. While it does not (the headless host stopped
 * or the socket dropped), what the page shows of servers is last known, not
 * current, and controls that need the host are disabled.
 */
export function useHostReachable(): boolean {
  return useAppState((s) => s.connection === 'connected');
}
