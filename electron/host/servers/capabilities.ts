import type { ServerCapabilities } from '@modelcontextprotocol/client';
import { HostError } from '../errors.js';

/** The server features a host may use only when the server declared them. */
export type ServerFeature =
  'tools' | 'resources' | 'resources.subscribe' | 'prompts' | 'logging' | 'completions';

/** Whether the server declared `feature` in its capabilities (initialize or server/discover). */
export function hasCapability(caps: ServerCapabilities | undefined, feature: ServerFeature): boolean {
  switch (feature) {
    case 'resources.subscribe':
      return caps?.resources?.subscribe === true;
    default:
      return caps?.[feature] !== undefined;
  }
}

const FEATURE_WORDS: Record<ServerFeature, string> = {
  tools: 'tools',
  resources: 'resources',
  'resources.subscribe': 'resource subscriptions',
  prompts: 'prompts',
  logging: 'log messages',
  completions: 'argument completion',
};

/**
 * Throws a clear HostError unless the server declared `feature`, so the host
 * never sends a request the server did not offer (the spec's capability
 * negotiation) and the user reads why instead of a JSON-RPC error.
 */
export function requireCapability(
  serverName: string,
  caps: ServerCapabilities | undefined,
  feature: ServerFeature,
): void {
  if (hasCapability(caps, feature)) return;
  throw new HostError(
    'not_found',
    `Server "${serverName}" does not offer ${FEATURE_WORDS[feature]} (it did not declare the "${feature}" capability)`,
  );
}
