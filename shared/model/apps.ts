import { z } from 'zod';
import { ServerNameSchema } from './config.js';
import { ResourceUriSchema } from './features.js';

export { APP_MIME_TYPE, MAX_APP_HTML_BYTES, UI_EXTENSION_ID } from './tool-meta.js';

/**
 * MCP Apps (extension `io.modelcontextprotocol/ui`, spec 2026-01-26): a tool
 * names a `ui://` HTML resource in `_meta.ui.resourceUri`; the host shows it
 * in a sandboxed frame beside the tool call. These are the shapes the host
 * and the renderer exchange about them, and the visibility rules both apply.
 */

/** A domain list of `_meta.ui.csp`: strings, each checked later by the host's CSP builder. */
const DomainList = z.array(z.string().max(512)).max(64).optional().catch(undefined);

/** `_meta.ui.csp` of a UI resource: the origins it needs besides its own inline code. */
export const AppCspSchema = z.object({
  connectDomains: DomainList,
  resourceDomains: DomainList,
  frameDomains: DomainList,
  baseUriDomains: DomainList,
});
export type AppCsp = z.infer<typeof AppCspSchema>;

export const APP_PERMISSIONS = ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const;
export const AppPermissionSchema = z.enum(APP_PERMISSIONS);
export type AppPermission = z.infer<typeof AppPermissionSchema>;

/** Who may open an app view: a chat tool call or a call from the Servers → Tools panel. */
export const AppOriginSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('chat'), conversationId: z.string().min(1).max(64) }).strict(),
  z.object({ kind: z.literal('panel') }).strict(),
]);
export type AppOrigin = z.infer<typeof AppOriginSchema>;

export const ViewIdSchema = z.string().regex(/^[A-Za-z0-9_-]{22,64}$/, 'Not a view id');

/** What the renderer asks for: the app of one tool of one server. */
export const OpenAppViewSchema = z
  .object({
    server: ServerNameSchema,
    tool: z.string().min(1).max(256),
    origin: AppOriginSchema,
  })
  .strict();

/** An app view the host prepared: its HTML, its policy and where its sandbox proxy lives. */
export const AppViewSchema = z.object({
  viewId: z.string(),
  server: z.string(),
  tool: z.string(),
  resourceUri: z.string(),
  html: z.string(),
  /** The origins the host accepted from `_meta.ui.csp` (what the app is told it got). */
  csp: AppCspSchema,
  /** Entries of `_meta.ui.csp` the host refused, one line each (shown to the person). */
  refusedCsp: z.array(z.string()),
  /** Permissions the resource declared; none is granted before the person agrees. */
  permissions: z.array(AppPermissionSchema),
  prefersBorder: z.boolean().optional(),
  /** The sandbox proxy page of this view (its own origin). */
  proxyUrl: z.string(),
});
export type AppView = z.infer<typeof AppViewSchema>;

const byView = z.object({ viewId: ViewIdSchema });

/** MCP content blocks an app may send in ui/message or ui/update-model-context, as given (checked by the host). */
const AppContentBlockSchema = z.looseObject({ type: z.string().max(64) });

export const AppCallToolSchema = byView
  .extend({
    name: z.string().min(1).max(256),
    arguments: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();
export const AppReadResourceSchema = byView.extend({ uri: ResourceUriSchema }).strict();
export const AppOpenLinkSchema = byView.extend({ url: z.string().min(1).max(8192) }).strict();
export const AppLogSchema = byView
  .extend({
    level: z.enum(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']),
    logger: z.string().max(256).optional(),
    data: z.unknown(),
    /** "app": the app's own notifications/message; "host": what the renderer saw of it (floods, bad messages). */
    source: z.enum(['app', 'host']).default('app'),
  })
  .strict();
export const AppModelContextSchema = byView
  .extend({
    content: z.array(AppContentBlockSchema).max(100).optional(),
    structuredContent: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();
export const GrantAppPermissionsSchema = byView
  .extend({ permissions: z.array(AppPermissionSchema).max(APP_PERMISSIONS.length) })
  .strict();
export const CloseAppViewSchema = byView.strict();

/** An MCP `CallToolResult` as an app receives it (content blocks as the server sent them). */
export const AppToolResultSchema = z.object({
  content: z.array(z.record(z.string(), z.unknown())),
  structuredContent: z.record(z.string(), z.unknown()).optional(),
  isError: z.boolean().optional(),
});
export type AppToolResult = z.infer<typeof AppToolResultSchema>;

/** A `resources/read` result as an app receives it: text or base64 blob per item. */
export const AppResourceResultSchema = z.object({
  contents: z.array(
    z.object({
      uri: z.string(),
      mimeType: z.string().optional(),
      text: z.string().optional(),
      blob: z.string().optional(),
    }),
  ),
});
export type AppResourceResult = z.infer<typeof AppResourceResultSchema>;
