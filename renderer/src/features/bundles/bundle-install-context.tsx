import { createContext, useContext } from 'react';
import type { ReactNode } from 'react';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import type { BundleInstallState } from './bundle-install.js';

const BundleInstallContext = createContext<StoreApi<BundleInstallState> | null>(null);

/** Makes the bundle-install store available to the components below. */
export function BundleInstallStoreProvider({
  store,
  children,
}: {
  store: StoreApi<BundleInstallState>;
  children: ReactNode;
}) {
  return <BundleInstallContext.Provider value={store}>{children}</BundleInstallContext.Provider>;
}

/** Reads a slice of the bundle-install state (its actions are stable fields). */
export function useBundleInstall<T>(selector: (state: BundleInstallState) => T): T {
  const store = useContext(BundleInstallContext);
  if (!store) throw new Error('useBundleInstall must be used inside <BundleInstallStoreProvider>');
  return useStore(store, selector);
}
