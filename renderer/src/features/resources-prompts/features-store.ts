import { createStore } from 'zustand/vanilla';
import type { StoreApi } from 'zustand/vanilla';
import type { HostApi } from '../../../../shared/ipc/host-api.js';
import type { HostErrorValue, Result } from '../../../../shared/ipc/result.js';
import type {
  CompletionRef,
  CompletionResult,
  PromptResult,
  ResourceListing,
  ResourceReadResult,
  ResourceTarget,
  RootInfo,
  ServerPrompts,
} from '../../../../shared/model/features.js';

/** The last read of one resource (or template expansion) of one server. */
export interface ResourceReadState {
  readonly loading: boolean;
  readonly result: ResourceReadResult | undefined;
  readonly error: HostErrorValue | undefined;
}

/** Something fetched from the host: the last value, whether a fetch runs, the last error. */
export interface Loadable<T> {
  readonly loading: boolean;
  readonly value: T | undefined;
  readonly error: HostErrorValue | undefined;
}

export interface RootsState {
  readonly loading: boolean;
  readonly roots: readonly RootInfo[];
  readonly error: HostErrorValue | undefined;
}

/**
 * Resources, prompts and roots: what the UI has read and asked for. Kept
 * apart from the app store (its own slice, its own file); the listings
 * themselves come with the server snapshot.
 */
export interface FeaturesData {
  /** Per server: its resources and templates. */
  readonly listings: Readonly<Record<string, Loadable<ResourceListing>>>;
  /** The prompts of every connected server that offers them. */
  readonly prompts: Loadable<readonly ServerPrompts[]>;
  /** Per server, per key (a URI, or a template): the last read. */
  readonly reads: Readonly<Record<string, Readonly<Record<string, ResourceReadState>>>>;
  /** Per server: the connection (its `connectedAt`) the subscriptions belong to. */
  readonly connections: Readonly<Record<string, number | undefined>>;
  /** Per server: subscribed URIs. */
  readonly subscribed: Readonly<Record<string, readonly string[]>>;
  /**
   * Per server, per URI: when the server last said the resource changed (ms
   * since the epoch). Newer than the last read's `readAt` means "changed since you read it".
   */
  readonly updatedAt: Readonly<Record<string, Readonly<Record<string, number>>>>;
  readonly roots: Readonly<Record<string, RootsState>>;
}

export interface FeaturesActions {
  /** Fetches a server's resources and templates (the host serves them from its catalog). */
  loadListing: (server: string) => Promise<void>;
  /** Fetches the prompts of every connected server. */
  loadPrompts: () => Promise<void>;
  /** Reads a resource; the outcome lands in `reads[server][key]`. */
  read: (server: string, key: string, target: ResourceTarget) => Promise<void>;
  /** Subscribes or unsubscribes; resolves with the host's error, if any. */
  setSubscribed: (server: string, uri: string, on: boolean) => Promise<HostErrorValue | undefined>;
  /**
   * Tells the store which connection of a server the UI sees (its
   * `connectedAt`). A new connection has no subscriptions, so they are
   * forgotten when it changes; the same connection keeps them.
   */
  syncConnection: (server: string, connectedAt: number | undefined) => void;
  complete: (
    server: string,
    ref: CompletionRef,
    argument: { name: string; value: string },
    context?: Record<string, string>,
  ) => Promise<Result<CompletionResult>>;
  getPrompt: (server: string, name: string, args: Record<string, string>) => Promise<Result<PromptResult>>;
  loadRoots: (server: string) => Promise<void>;
  /** Adds a typed path; resolves with the host's one-line refusal, if any. */
  addRoot: (server: string, path: string) => Promise<HostErrorValue | undefined>;
  /** Opens the system folder picker (Electron); false when nothing was picked. */
  pickRoot: (server: string) => Promise<Result<boolean>>;
  removeRoot: (server: string, uri: string) => Promise<HostErrorValue | undefined>;
}

export interface FeaturesState extends FeaturesData {
  readonly actions: FeaturesActions;
}

const NOTHING = { loading: false, value: undefined, error: undefined } as const;
const EMPTY_READ: ResourceReadState = { loading: false, result: undefined, error: undefined };
const EMPTY_ROOTS: RootsState = { loading: false, roots: [], error: undefined };

export const readOf = (s: FeaturesData, server: string, key: string): ResourceReadState =>
  s.reads[server]?.[key] ?? EMPTY_READ;
export const listingOf = (s: FeaturesData, server: string): Loadable<ResourceListing> =>
  s.listings[server] ?? NOTHING;
export const rootsOf = (s: FeaturesData, server: string): RootsState => s.roots[server] ?? EMPTY_ROOTS;

export function createFeaturesStore(host: HostApi): { store: StoreApi<FeaturesState>; dispose: () => void } {
  const store = createStore<FeaturesState>()((set, get) => {
    const patchRead = (server: string, key: string, patch: Partial<ResourceReadState>) => {
      set((s) => ({
        reads: {
          ...s.reads,
          [server]: { ...s.reads[server], [key]: { ...readOf(s, server, key), ...patch } },
        },
      }));
    };
    const setRoots = (server: string, patch: Partial<RootsState>) => {
      set((s) => ({ roots: { ...s.roots, [server]: { ...rootsOf(s, server), ...patch } } }));
    };
    const applyRoots = (server: string, result: Result<readonly RootInfo[]>): HostErrorValue | undefined => {
      if (result.ok) setRoots(server, { loading: false, roots: result.value, error: undefined });
      return result.ok ? undefined : result.error;
    };

    const actions: FeaturesActions = {
      async loadListing(server) {
        const patch = (p: Partial<Loadable<ResourceListing>>) => {
          set((s) => ({ listings: { ...s.listings, [server]: { ...listingOf(s, server), ...p } } }));
        };
        patch({ loading: true });
        const result = await host.listResources({ server });
        patch(
          result.ok
            ? { loading: false, value: result.value, error: undefined }
            : { loading: false, error: result.error },
        );
      },
      async loadPrompts() {
        set((s) => ({ prompts: { ...s.prompts, loading: true } }));
        const result = await host.listPrompts({});
        set((s) => ({
          prompts: result.ok
            ? { loading: false, value: result.value, error: undefined }
            : { ...s.prompts, loading: false, error: result.error },
        }));
      },
      async read(server, key, target) {
        if (readOf(get(), server, key).loading) return;
        patchRead(server, key, { loading: true, error: undefined });
        const result = await host.readResource({ server, target });
        patchRead(
          server,
          key,
          result.ok
            ? { loading: false, result: result.value, error: undefined }
            : { loading: false, error: result.error },
        );
      },
      async setSubscribed(server, uri, on) {
        const result = on
          ? await host.subscribeResource({ server, uri })
          : await host.unsubscribeResource({ server, uri });
        if (!result.ok) return result.error;
        set((s) => {
          const current = s.subscribed[server] ?? [];
          const next = on ? [...current.filter((u) => u !== uri), uri] : current.filter((u) => u !== uri);
          return { subscribed: { ...s.subscribed, [server]: next } };
        });
        return undefined;
      },
      syncConnection(server, connectedAt) {
        const s = get();
        if (server in s.connections && s.connections[server] === connectedAt) return;
        set({
          connections: { ...s.connections, [server]: connectedAt },
          subscribed: { ...s.subscribed, [server]: [] },
        });
      },
      complete: (server, ref, argument, context) =>
        host.complete({ server, ref, argument, ...(context ? { context } : {}) }),
      getPrompt: (server, name, args) => host.getPrompt({ server, name, arguments: args }),
      async loadRoots(server) {
        setRoots(server, { loading: true });
        const result = await host.listRoots({ server });
        setRoots(
          server,
          result.ok
            ? { loading: false, roots: result.value, error: undefined }
            : { loading: false, error: result.error },
        );
      },
      async addRoot(server, path) {
        return applyRoots(server, await host.addRoot({ server, path }));
      },
      async pickRoot(server) {
        const result = await host.pickRoot({ server });
        if (!result.ok) return result;
        applyRoots(server, { ok: true, value: result.value.roots });
        return { ok: true, value: result.value.picked };
      },
      async removeRoot(server, uri) {
        return applyRoots(server, await host.removeRoot({ server, uri }));
      },
    };

    return {
      listings: {},
      prompts: NOTHING,
      reads: {},
      connections: {},
      subscribed: {},
      updatedAt: {},
      roots: {},
      actions,
    };
  });

  const unsubscribe = host.on('resourceUpdated', ({ server, uri, at }) => {
    store.setState((s) => ({
      updatedAt: { ...s.updatedAt, [server]: { ...s.updatedAt[server], [uri]: at } },
    }));
  });
  return { store, dispose: unsubscribe };
}
