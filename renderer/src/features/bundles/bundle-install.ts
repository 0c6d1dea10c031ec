import { createStore } from 'zustand/vanilla';
import type { StoreApi } from 'zustand/vanilla';

/**
 * Which bundle the install dialog is about: a file the person dropped or
 * chose in the page (uploaded to the host), or the host's own file dialog
 * (Electron). Anything can ask (the window's drop target, "Install from
 * bundle…", a bundle server's "Update"); one dialog at a time answers.
 * Kept free of zod: the drop target that uses it is on the first screen.
 */
export type BundleRequest = { kind: 'file'; file: File } | { kind: 'pick' };

export interface BundleInstallState {
  readonly request: (BundleRequest & { readonly id: number }) | undefined;
  open: (request: BundleRequest) => void;
  close: () => void;
}

/** The window's bundle-install store, made once in main.tsx (see bundle-install-context.tsx). */
export function createBundleInstallStore(): StoreApi<BundleInstallState> {
  let counter = 0;
  return createStore<BundleInstallState>()((set) => ({
    request: undefined,
    open(request) {
      counter += 1;
      set({ request: { ...request, id: counter } });
    },
    close() {
      set({ request: undefined });
    },
  }));
}

/** A file name that is an MCP bundle (formerly a Claude Desktop extension, .dxt). */
export const isBundleFileName = (name: string): boolean => /\.(mcpb|dxt)$/i.test(name);
