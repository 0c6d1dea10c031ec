import { onDemand } from '../common/on-demand.js';

/**
 * Everything the first screen (the chat, with no conversation or a short
 * one) does not need, each loaded on first use from its own chunk. To make
 * another view, dialog or heavy widget load on demand, add a row here and
 * import it from this file instead of its module; draw it inside
 * <Deferred> (lazy/on-demand.tsx). `npm run build` prints the initial size.
 */

// Sections of the rail other than Chat.
export const ServersView = onDemand(() =>
  import('../features/servers/servers-view.js').then((m) => m.ServersView),
);
export const BrowseView = onDemand(() =>
  import('../features/browse/browse-view.js').then((m) => m.BrowseView),
);
export const SettingsView = onDemand(() =>
  import('../features/settings/settings-view.js').then((m) => m.SettingsView),
);

// A conversation's messages: the virtualized list (@tanstack/react-virtual), tool cards and results.
export const MessageList = onDemand(() =>
  import('../features/chat/message-list.js').then((m) => m.MessageList),
);

// Markdown and code highlighting (react-markdown, remark-gfm, highlight.js).
export const Markdown = onDemand(() => import('../features/markdown/markdown.js').then((m) => m.Markdown));

// Dialogs.
export const ToolConsentDialog = onDemand(() =>
  import('../features/consent/tool-consent-dialog.js').then((m) => m.ToolConsentDialog),
);
export const SamplingDialog = onDemand(() =>
  import('../features/sampling/sampling-dialog.js').then((m) => m.SamplingDialog),
);
export const SamplingReviewDialog = onDemand(() =>
  import('../features/sampling/sampling-review-dialog.js').then((m) => m.SamplingReviewDialog),
);
export const ElicitationFormDialog = onDemand(() =>
  import('../features/elicitation/elicitation-form-dialog.js').then((m) => m.ElicitationFormDialog),
);
export const ElicitationUrlDialog = onDemand(() =>
  import('../features/elicitation/elicitation-url-dialog.js').then((m) => m.ElicitationUrlDialog),
);
export const ConversationSettingsDialog = onDemand(() =>
  import('../features/chat/conversation-settings-dialog.js').then((m) => m.ConversationSettingsDialog),
);
export const ExportDialog = onDemand(() =>
  import('../features/chat/export-dialog.js').then((m) => m.ExportDialog),
);
export const DeleteConversationDialog = onDemand(() =>
  import('../features/chat/delete-conversation-dialog.js').then((m) => m.DeleteConversationDialog),
);
export const AddServerDialog = onDemand(() =>
  import('../features/config/add-server-dialog.js').then((m) => m.AddServerDialog),
);
export const ImportDialog = onDemand(() =>
  import('../features/config/import-dialog.js').then((m) => m.ImportDialog),
);
export const RawConfigDialog = onDemand(() =>
  import('../features/config/raw-config-dialog.js').then((m) => m.RawConfigDialog),
);
export const ServerFormDialog = onDemand(() =>
  import('../features/config/server-form-dialog.js').then((m) => m.ServerFormDialog),
);
export const BundleInstallDialog = onDemand(() =>
  import('../features/bundles/bundle-install-dialog.js').then((m) => m.BundleInstallDialog),
);
export const InstallDialog = onDemand(() =>
  import('../features/browse/install-dialog.js').then((m) => m.InstallDialog),
);
export const RemoveServerDialog = onDemand(() =>
  import('../features/servers/remove-server-dialog.js').then((m) => m.RemoveServerDialog),
);

// Panels of the server view used less often.
export const LogView = onDemand(() => import('../features/logs/log-view.js').then((m) => m.LogView));
// A prompt's argument form (in the "/" picker and the Prompts tab). The picker
// itself is not here: it must answer Enter the moment "/" opens it.
export const PromptForm = onDemand(() =>
  import('../features/resources-prompts/prompt-form.js').then((m) => m.PromptForm),
);
