import { createContext, useContext } from 'react';
import type { ReactNode } from 'react';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import type { ConsentState } from './consent-store.js';

const ConsentContext = createContext<StoreApi<ConsentState> | null>(null);

export function ConsentStoreProvider({
  store,
  children,
}: {
  store: StoreApi<ConsentState>;
  children: ReactNode;
}) {
  return <ConsentContext.Provider value={store}>{children}</ConsentContext.Provider>;
}

/** Reads a slice of the consent queue. */
export function useConsent<T>(selector: (state: ConsentState) => T): T {
  const store = useContext(ConsentContext);
  if (!store) throw new Error('useConsent must be used inside <ConsentStoreProvider>');
  return useStore(store, selector);
}
