import { createContext, useContext } from 'react';
import type { ReactNode } from 'react';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import type { HostApi } from '../../../shared/ipc/host-api.js';
import type { LogsState } from '../features/logs/logs-store.js';

interface AreaContextValue {
  host: HostApi;
  logs: StoreApi<LogsState>;
}

const AreaContext = createContext<AreaContextValue | null>(null);

/** The logs slice and the host's configuration requests, for the logs and config areas. */
export function AreaProvider({ value, children }: { value: AreaContextValue; children: ReactNode }) {
  return <AreaContext.Provider value={value}>{children}</AreaContext.Provider>;
}

function useArea(): AreaContextValue {
  const value = useContext(AreaContext);
  if (!value) throw new Error('used outside <AreaProvider>');
  return value;
}

/** The host, for request/response configuration work (edit, raw JSON, import). */
export function useHost(): HostApi {
  return useArea().host;
}

/** Reads a slice of the logs state; selectors must return stable values. */
export function useLogs<T>(selector: (state: LogsState) => T): T {
  return useStore(useArea().logs, selector);
}
