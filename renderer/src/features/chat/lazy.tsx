import { onDemand } from '../../common/on-demand.js';

/**
 * This feature's on-demand components, each loaded on first use from its own
 * chunk (drawn inside <Deferred>, common/on-demand.tsx). Other features and the
 * app shell import these instead of the modules; nothing loaded from here may
 * import this file back (`node scripts/import-cycles.mjs` checks).
 */
export const MessageList = onDemand(() => import('./message-list.js').then((m) => m.MessageList));
export const ConversationSettingsDialog = onDemand(() =>
  import('./conversation-settings-dialog.js').then((m) => m.ConversationSettingsDialog),
);
export const ExportDialog = onDemand(() => import('./export-dialog.js').then((m) => m.ExportDialog));
export const DeleteConversationDialog = onDemand(() =>
  import('./delete-conversation-dialog.js').then((m) => m.DeleteConversationDialog),
);
