import { createContext, useContext } from 'react';
import type { ReactNode } from 'react';
import type { HostApi } from '../../../shared/ipc/host-api.js';

interface AreaContextValue {
  host: HostApi;
}

const AreaContext = createContext<AreaContextValue | null>(null);

/** The host's request/response API, for the areas that ask it directly (config, install, apps). */
export function AreaProvider({ value, children }: { value: AreaContextValue; children: ReactNode }) {
  return <AreaContext.Provider value={value}>{children}</AreaContext.Provider>;
}

/** The host, for request/response configuration work (edit, raw JSON, import). */
export function useHost(): HostApi {
  const value = useContext(AreaContext);
  if (!value) throw new Error('used outside <AreaProvider>');
  return value.host;
}
