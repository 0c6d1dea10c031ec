import type { ResourceListing, ServerPrompts } from '../../../shared/model/features.js';
import { hasCapability } from '../servers/capabilities.js';
import type { ServerConnection } from '../servers/server-connection.js';

/**
 * A server's resources and templates as the catalog holds them (every page,
 * refreshed on list_changed), with what the server allows: subscriptions and
 * completions. No request goes to the server here.
 */
export function resourceListing(connection: ServerConnection): ResourceListing {
  connection.requireCapability('resources');
  const catalog = connection.catalog;
  const caps = connection.connectedClient?.getServerCapabilities();
  return {
    resources: [...(catalog?.resources ?? [])],
    templates: [...(catalog?.resourceTemplates ?? [])],
    subscribe: hasCapability(caps, 'resources.subscribe'),
    completions: hasCapability(caps, 'completions'),
  };
}

/** The prompts of every connected server that offers them (for the Prompts tab and the "/" picker). */
export function allPrompts(connections: readonly ServerConnection[]): ServerPrompts[] {
  const found: ServerPrompts[] = [];
  for (const connection of connections) {
    const caps = connection.connectedClient?.getServerCapabilities();
    const catalog = connection.catalog;
    if (!catalog || !hasCapability(caps, 'prompts')) continue;
    found.push({
      server: connection.name,
      prompts: [...catalog.prompts],
      completions: hasCapability(caps, 'completions'),
    });
  }
  return found;
}
