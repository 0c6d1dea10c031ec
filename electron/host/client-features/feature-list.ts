import { appsFeature } from './apps/apps-feature.js';
import type { ClientFeature } from './client-feature.js';
import { elicitationFeature } from './elicitation/elicitation-feature.js';
import type { ElicitationServices } from './elicitation/elicitation-handler.js';
import { rootsFeature } from './roots/roots-feature.js';
import { samplingFeature } from './sampling/sampling-feature.js';
import type { SamplingServices } from './sampling/sampling-handler.js';
import { tasksFeature } from './tasks/tasks-feature.js';
import type { TaskServices } from './tasks/tasks-feature.js';

/** The host's services some features need; a feature whose services are absent is not declared. */
export interface ClientFeatureServices {
  /** Present when a person can approve sampling requests. */
  readonly sampling?: SamplingServices | undefined;
  /** Present when someone (a person, or the conformance client's fixed answers) answers elicitations. */
  readonly elicitation?: ElicitationServices | undefined;
  /** Present when the host keeps a task registry (tool calls may then run as tasks). */
  readonly tasks?: TaskServices | undefined;
}

/**
 * The features every per-server client of this host offers, in the order
 * they are declared. A new client feature is one folder under
 * client-features/ and one line here.
 */
export function hostClientFeatures(services: ClientFeatureServices = {}): readonly ClientFeature[] {
  const features: (ClientFeature | undefined)[] = [
    rootsFeature,
    services.sampling && samplingFeature(services.sampling),
    services.elicitation && elicitationFeature(services.elicitation),
    appsFeature,
    services.tasks &&
      tasksFeature(services.tasks, {
        sampling: services.sampling !== undefined,
        elicitation: services.elicitation !== undefined,
      }),
  ];
  return features.filter((feature) => feature !== undefined);
}
