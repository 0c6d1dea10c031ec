import type { InstallService } from '../install/install-service.js';
import type { DomainHandlers } from '../ipc/handlers.js';

/** The registry and install-link requests; each install is one the host prepared itself. */
export function registryHandlers(installs: InstallService): DomainHandlers<'registry'> {
  return {
    searchRegistry: ({ query, cursor }) => installs.search(query, cursor),
    prepareRegistryInstall: ({ name, version }) => installs.prepareRegistry(name, version),
    listPendingInstalls: () => Promise.resolve(installs.list()),
    previewInstall: (request) => installs.preview(request),
    installServer: (request) => installs.install(request),
    dismissInstall: ({ id }) => {
      installs.dismiss(id);
      return Promise.resolve(null);
    },
  };
}
