import { createContext, useContext } from 'react';
import type { ReactNode } from 'react';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import type { RulesState } from './rules-store.js';

const RulesContext = createContext<StoreApi<RulesState> | null>(null);

/** Makes the consent rules available to the components below. */
export function RulesStoreProvider({
  store,
  children,
}: {
  store: StoreApi<RulesState>;
  children: ReactNode;
}) {
  return <RulesContext.Provider value={store}>{children}</RulesContext.Provider>;
}

/** Reads a slice of the consent rules; selectors must return stable values. */
export function useRules<T>(selector: (state: RulesState) => T): T {
  const store = useContext(RulesContext);
  if (!store) throw new Error('useRules must be used inside <RulesStoreProvider>');
  return useStore(store, selector);
}
