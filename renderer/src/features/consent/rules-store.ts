import { createStore } from 'zustand/vanilla';
import type { StoreApi } from 'zustand/vanilla';
import { loadOnEveryConnect } from '../../bridge/connection.js';
import type { HostConnection } from '../../bridge/connection.js';
import type { HostApi } from '../../../../shared/ipc/host-api.js';
import type { HostErrorValue, Result } from '../../../../shared/ipc/result.js';
import type { ConsentRule, ConsentRules, ServerTrustScope } from '../../../../shared/model/consent-rules.js';
import type { ToolChange } from '../../../../shared/model/tool-pins.js';

export interface RulesState {
  /** Every consent rule; undefined until loaded. */
  readonly rules: readonly ConsentRule[] | undefined;
  /** The host's word that no rule applies (damaged or newer rule store). */
  readonly problem: string | undefined;
  /** The host's refusal of the last change. */
  readonly error: HostErrorValue | undefined;
  readonly actions: {
    revoke: (id: string) => Promise<Result<null>>;
    setServerTrust: (
      server: string,
      scope: ServerTrustScope,
      enabled: boolean,
    ) => Promise<Result<ConsentRules>>;
    /** A server's tools whose definition changed since pinned, or that are new, with their diffs. */
    toolChanges: (server: string) => Promise<Result<ToolChange[]>>;
    /** Accepts the definition shown (by its digest); the server's remaining changes. */
    acceptToolChange: (server: string, tool: string, digest: string) => Promise<Result<ToolChange[]>>;
  };
}

export interface RulesStore {
  readonly store: StoreApi<RulesState>;
  dispose(): void;
}

/**
 * The consent rules as the host keeps them: loaded on every (re)connect, then
 * replaced by each `policiesChanged` event (rules made in a consent dialog,
 * revoked, or gone with their conversation). Only the host decides what a
 * rule is bound to; this store only shows and asks.
 */
export function createRulesStore(host: HostApi, connection: HostConnection): RulesStore {
  const store = createStore<RulesState>()((set) => {
    const apply = (value: ConsentRules): void => {
      set({ rules: value.rules, problem: value.problem, error: undefined });
    };
    return {
      rules: undefined,
      problem: undefined,
      error: undefined,
      actions: {
        async revoke(id) {
          const result = await host.revokePolicy({ id });
          if (result.ok) set((s) => ({ rules: s.rules?.filter((r) => r.id !== id), error: undefined }));
          else set({ error: result.error });
          return result;
        },
        async setServerTrust(server, scope, enabled) {
          const result = await host.setServerTrust({ server, scope, enabled });
          if (result.ok) apply(result.value);
          else set({ error: result.error });
          return result;
        },
        toolChanges: (server) => host.listToolChanges({ server }),
        acceptToolChange: (server, tool, digest) => host.acceptToolChange({ server, tool, digest }),
      },
    };
  });
  const load = async (): Promise<void> => {
    const result = await host.listPolicies({});
    if (result.ok) store.setState({ rules: result.value.rules, problem: result.value.problem });
  };
  const unsubscribes = [
    host.on('policiesChanged', (value) => {
      store.setState({ rules: value.rules, problem: value.problem });
    }),
    loadOnEveryConnect(connection, load),
  ];
  return {
    store,
    dispose() {
      for (const unsubscribe of unsubscribes) unsubscribe();
    },
  };
}
