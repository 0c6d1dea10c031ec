import type { ClientFeature } from '../client-feature.js';
import { installSampling } from './sampling-handler.js';
import type { SamplingServices } from './sampling-handler.js';

/**
 * Sampling (with tools), answered through consent and Claude. Only a client
 * with a person to approve each request declares it.
 */
export function samplingFeature(services: SamplingServices): ClientFeature {
  return {
    name: 'sampling',
    capabilities: { sampling: { tools: {} } },
    install: (client, context) => {
      installSampling(client, context, services);
    },
  };
}
