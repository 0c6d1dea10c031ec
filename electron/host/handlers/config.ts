import { applyOAuthSecretInput, withStoredSecretFlag } from '../servers/http/auth/oauth-secrets.js';
import type { FileOAuthStore } from '../servers/http/auth/oauth-store.js';
import type { BundleInstaller } from '../install/bundle/bundle-installer.js';
import type { DomainHandlers } from '../ipc/handlers.js';
import type { ConfigEditor } from '../servers/config/config-editor.js';
import type { HostEnvironment } from '../servers/stdio/login-env.js';
import type { ServerManager } from '../servers/server-manager.js';
import { serverSkills } from '../features/skill-listing.js';

export interface ConfigHandlerDeps {
  servers: ServerManager;
  editor: ConfigEditor;
  bundles: BundleInstaller;
  oauthStore: FileOAuthStore;
  environment: () => Promise<HostEnvironment>;
  /** Connects every enabled server in the background after a (re)load. */
  startAll: () => void;
}

/** The configuration requests: the file, its entries, the raw text, imports from other hosts. */
export function configHandlers(deps: ConfigHandlerDeps): DomainHandlers<'config'> {
  const { servers, editor, bundles, oauthStore, environment } = deps;
  return {
    getConfigState: () => Promise.resolve(servers.configState()),
    reloadConfig: async () => {
      const state = await servers.load();
      await bundles.forgetOrphans();
      deps.startAll();
      return state;
    },
    getServerInput: ({ name }) => withStoredSecretFlag(oauthStore, environment, editor.inputOf(name)),
    saveServer: async ({ originalName, input }) => {
      // A name clash is refused before anything is touched (another server's credentials stay its own).
      if (input.name !== originalName && servers.has(input.name)) return editor.save(originalName, input);
      // The typed OAuth client secret goes to the encrypted store, never to the file.
      const undo = await applyOAuthSecretInput(oauthStore, environment, originalName, input);
      // The `${secret:}` table follows the edited entry once it is written (ServerManager.install).
      try {
        return await editor.save(originalName, input);
      } catch (error) {
        await undo().catch(() => undefined);
        throw error;
      }
    },
    setServerEnabled: ({ name, enabled }) => editor.setServerEnabled(name, enabled),
    setServerSandboxed: ({ name, ...change }) => editor.setServerSandbox(name, change),
    setToolEnabled: ({ name, tool, enabled }) => editor.setToolEnabled(name, tool, enabled),
    setSkillsEnabled: async ({ name, enabled }) => {
      await editor.setSkillsEnabled(name, enabled);
      return serverSkills(servers.get(name));
    },
    getRawConfig: () => editor.rawText(),
    saveRawConfig: async ({ text }) => {
      const state = await editor.saveRawText(text);
      await bundles.forgetOrphans();
      return state;
    },
    listImportLocations: () => editor.locations(),
    previewImport: ({ source, text }) => editor.preview(source, text),
    importServers: (request) => editor.import(request),
  };
}
