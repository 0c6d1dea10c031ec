import { onDemand } from '../../common/on-demand.js';

/**
 * What this feature's own components load on demand. Apart from lazy.tsx,
 * which loads the feature's view: these parts are drawn inside that view, so
 * an entry shared with it would import itself back.
 */
export const InstallDialog = onDemand(() => import('./install-dialog.js').then((m) => m.InstallDialog));
