import type { ClientFeature } from '../client-feature.js';
import { installElicitation } from './elicitation-handler.js';
import type { ElicitationServices } from './elicitation-handler.js';

/**
 * Elicitation in form and URL mode, answered through consent (or, for the
 * conformance client, without a person: elicitation-non-interactive.ts).
 */
export function elicitationFeature(services: ElicitationServices): ClientFeature {
  return {
    name: 'elicitation',
    capabilities: { elicitation: { form: {}, url: {} } },
    install: (client, context) => {
      installElicitation(client, context.server, services);
    },
  };
}
