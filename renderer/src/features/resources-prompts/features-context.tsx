import { createContext, useContext } from 'react';
import type { ReactNode } from 'react';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import type { FeaturesActions, FeaturesState } from './features-store.js';

const FeaturesContext = createContext<StoreApi<FeaturesState> | null>(null);

/** Makes the features store (resources, prompts, roots) available to the components below. */
export function FeaturesStoreProvider({
  store,
  children,
}: {
  store: StoreApi<FeaturesState>;
  children: ReactNode;
}) {
  return <FeaturesContext.Provider value={store}>{children}</FeaturesContext.Provider>;
}

function useFeaturesStoreApi(): StoreApi<FeaturesState> {
  const store = useContext(FeaturesContext);
  if (!store) throw new Error('useFeatures must be used inside <FeaturesStoreProvider>');
  return store;
}

/** Reads a slice of the features state (selectors must return stable values). */
export function useFeatures<T>(selector: (state: FeaturesState) => T): T {
  return useStore(useFeaturesStoreApi(), selector);
}

/** The features store's actions (a stable object). */
export function useFeatureActions(): FeaturesActions {
  return useStore(useFeaturesStoreApi(), (s) => s.actions);
}
