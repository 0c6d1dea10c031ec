import { onDemand } from '../../common/on-demand.js';

/**
 * This feature's on-demand components, each loaded on first use from its own
 * chunk (drawn inside <Deferred>, common/on-demand.tsx). Other features and the
 * app shell import these instead of the modules; nothing loaded from here may
 * import this file back (`node scripts/import-cycles.mjs` checks).
 */
export const ToolConsentDialog = onDemand(() =>
  import('./tool-consent-dialog.js').then((m) => m.ToolConsentDialog),
);
export const NetworkConsentDialog = onDemand(() =>
  import('./network-consent-dialog.js').then((m) => m.NetworkConsentDialog),
);
