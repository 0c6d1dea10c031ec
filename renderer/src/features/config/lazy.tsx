import { onDemand } from '../../common/on-demand.js';

/**
 * This feature's on-demand components, each loaded on first use from its own
 * chunk (drawn inside <Deferred>, common/on-demand.tsx). Other features and the
 * app shell import these instead of the modules; nothing loaded from here may
 * import this file back (`node scripts/import-cycles.mjs` checks).
 */
export const AddServerDialog = onDemand(() =>
  import('./add-server-dialog.js').then((m) => m.AddServerDialog),
);
export const ImportDialog = onDemand(() => import('./import-dialog.js').then((m) => m.ImportDialog));
export const RawConfigDialog = onDemand(() =>
  import('./raw-config-dialog.js').then((m) => m.RawConfigDialog),
);
export const ServerFormDialog = onDemand(() =>
  import('./server-form-dialog.js').then((m) => m.ServerFormDialog),
);
