import type { BundleInstaller } from '../install/bundle/bundle-installer.js';
import type { DomainHandlers } from '../ipc/handlers.js';

/** The handlers of the bundle requests (the contract validated their params). */
export function bundleHandlers(bundles: BundleInstaller): DomainHandlers<'bundles'> {
  return {
    uploadBundleChunk: (chunk) => Promise.resolve(bundles.uploadChunk(chunk)),
    previewBundle: ({ source }) => bundles.previewSource(source),
    pickBundlePath: async ({ token, key }) => ({ path: await bundles.pickPath(token, key) }),
    installBundle: ({ token, values }) => bundles.install(token, values),
    discardBundle: async ({ token }) => {
      await bundles.discard(token);
      return null;
    },
    uninstallBundle: async ({ name }) => {
      await bundles.uninstall(name);
      return null;
    },
  };
}
