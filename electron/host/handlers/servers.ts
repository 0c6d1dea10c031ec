import { auditUserCall } from '../consent/user-call-audit.js';
import type { BundleInstaller } from '../install/bundle/bundle-installer.js';
import type { DomainHandlers } from '../ipc/handlers.js';
import type { Persistence } from '../persistence/persistence.js';
import type { ServerLogs } from '../servers/lifecycle/server-log.js';
import type { ServerManager } from '../servers/server-manager.js';

export interface ServerHandlerDeps {
  servers: ServerManager;
  logs: ServerLogs;
  bundles: BundleInstaller;
  /** Absent in the one-shot CLI, which keeps no audit trail (it never opens the database). */
  persistence?: Persistence | undefined;
}

/** The server requests: lifecycle, sign-in, calls the person makes, logs. */
export function serverHandlers(deps: ServerHandlerDeps): DomainHandlers<'servers'> {
  const { servers, logs, bundles, persistence } = deps;
  return {
    listServers: () => Promise.resolve(servers.list()),
    removeServer: async ({ name }) => {
      // A bundle's server takes its files and secrets along; either way the
      // server manager forgets its `${secret:}` table with the entry.
      if (await bundles.isBundle(name)) await bundles.uninstall(name);
      else await servers.remove(name);
      return null;
    },
    startServer: ({ name }) => servers.get(name).start(),
    stopServer: ({ name }) => servers.get(name).stop(),
    // Stops and starts as the person asked, clearing the crash count (also after giving up).
    restartServer: ({ name }) => servers.get(name).restart(),
    // OAuth: opens the browser for a remote server's sign-in; resolves once it is open.
    signInServer: ({ name }) => servers.get(name).signIn(),
    cancelSignIn: ({ name }) => servers.get(name).cancelSignIn(),
    signOutServer: ({ name }) => servers.get(name).signOut(),
    callTool: async ({ server, tool, argumentsJson, callId }) => {
      // A call the person makes themselves needs no consent, but it is part of the audit trail.
      if (persistence)
        await auditUserCall(() => persistence.open(), servers, { server, tool, argumentsJson });
      return servers.callTool(server, tool, argumentsJson, { callId });
    },
    cancelToolCall: ({ callId }) => Promise.resolve(servers.cancelToolCall(callId)),
    getServerLogs: ({ name }) => {
      servers.get(name);
      return Promise.resolve(logs.snapshot(name));
    },
    setLogLevel: async ({ name, level }) => {
      await servers.get(name).setLogLevel(level);
      logs.of(name).level = level;
      return null;
    },
  };
}
