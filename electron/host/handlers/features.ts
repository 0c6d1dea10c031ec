import type { DomainHandlers } from '../ipc/handlers.js';
import type { Platform } from '../platform.js';
import { describeRoot, rootUriFromPath, withRoot } from '../client-features/roots/roots.js';
import type { ServerManager } from '../servers/server-manager.js';
import { complete } from '../features/completions.js';
import { allPrompts, resourceListing } from '../features/listings.js';
import { getPrompt } from '../features/prompts.js';
import { serverSkills } from '../features/skill-listing.js';
import { readResource, subscribeResource, unsubscribeResource } from '../features/resources.js';

/** The handlers of the resources, prompts, completions and roots requests. */
export function featureHandlers(
  servers: ServerManager,
  platform: Pick<Platform, 'pickFolder'>,
): DomainHandlers<'features'> {
  const roots = (name: string) => servers.rootsOf(name).map(describeRoot);
  const addPath = async (server: string, path: string) => {
    const uri = await rootUriFromPath(path);
    await servers.setRoots(server, withRoot(servers.rootsOf(server), uri));
    return roots(server);
  };
  return {
    listResources: ({ server }) => Promise.resolve(resourceListing(servers.get(server))),
    listPrompts: () => Promise.resolve(allPrompts(servers.list().map((s) => servers.get(s.name)))),
    readResource: ({ server, target }) => readResource(servers.get(server), target),
    subscribeResource: async ({ server, uri }) => {
      await subscribeResource(servers.get(server), uri);
      return null;
    },
    unsubscribeResource: async ({ server, uri }) => {
      await unsubscribeResource(servers.get(server), uri);
      return null;
    },
    complete: ({ server, ref, argument, context }) => complete(servers.get(server), ref, argument, context),
    getPrompt: ({ server, name, arguments: args }) => getPrompt(servers.get(server), name, args),
    listSkills: ({ server }) => serverSkills(servers.get(server)),
    listRoots: ({ server }) => Promise.resolve(roots(server)),
    addRoot: ({ server, path }) => addPath(server, path),
    pickRoot: async ({ server }) => {
      servers.get(server);
      const path = await platform.pickFolder({ title: `Choose a folder "${server}" may see` });
      if (path === null) return { picked: false, roots: roots(server) };
      return { picked: true, roots: await addPath(server, path) };
    },
    removeRoot: async ({ server, uri }) => {
      await servers.setRoots(
        server,
        servers.rootsOf(server).filter((r) => r !== uri),
      );
      return roots(server);
    },
  };
}
