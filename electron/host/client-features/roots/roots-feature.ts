import type { ClientFeature } from '../client-feature.js';
import { installRootsHandler } from './roots.js';

/**
 * Roots: the client declares them (with list-change notices, sent when the
 * person edits a server's folders) and answers `roots/list` from the
 * server's entry as it is at each request. Every client has it.
 */
export const rootsFeature: ClientFeature = {
  name: 'roots',
  capabilities: { roots: { listChanged: true } },
  install: (client, context) => {
    installRootsHandler(client, () => context.config().roots ?? []);
  },
};
