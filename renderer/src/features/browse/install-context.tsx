import { createContext, useContext } from 'react';
import type { ReactNode } from 'react';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import type { InstallState } from './install-store.js';

const InstallContext = createContext<StoreApi<InstallState> | null>(null);

export function InstallStoreProvider({
  store,
  children,
}: {
  store: StoreApi<InstallState>;
  children: ReactNode;
}) {
  return <InstallContext.Provider value={store}>{children}</InstallContext.Provider>;
}

/** Reads a slice of the installs that came from links. */
export function useInstalls<T>(selector: (state: InstallState) => T): T {
  const store = useContext(InstallContext);
  if (!store) throw new Error('useInstalls must be used inside <InstallStoreProvider>');
  return useStore(store, selector);
}
