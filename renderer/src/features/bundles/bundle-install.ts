import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';

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

let counter = 0;

export const bundleInstallStore = createStore<BundleInstallState>()((set) => ({
  request: undefined,
  open(request) {
    counter += 1;
    set({ request: { ...request, id: counter } });
  },
  close() {
    set({ request: undefined });
  },
}));

export function useBundleInstall<T>(selector: (state: BundleInstallState) => T): T {
  return useStore(bundleInstallStore, selector);
}

/** A file name that is an MCP bundle (formerly a Claude Desktop extension, .dxt). */
export const isBundleFileName = (name: string): boolean => /\.(mcpb|dxt)$/i.test(name);
