import { z } from 'zod';
import {
  AppCallToolSchema,
  AppLogSchema,
  AppModelContextSchema,
  AppOpenLinkSchema,
  AppPermissionSchema,
  AppReadResourceSchema,
  AppResourceResultSchema,
  AppToolResultSchema,
  AppViewSchema,
  CloseAppViewSchema,
  GrantAppPermissionsSchema,
  OpenAppViewSchema,
} from '../../model/apps.js';

// MCP Apps. A view is prepared by the host; every later request names its viewId,
// and the host applies the view's server, the tool's visibility and consent.
export const appsRequests = {
  /** Reads the tool's ui:// resource and prepares a sandboxed view of it. */
  openAppView: { params: OpenAppViewSchema, result: AppViewSchema },
  /** The view went away (its frame was torn down). */
  closeAppView: { params: CloseAppViewSchema, result: z.null() },
  /** The person's choice among the permissions the app declared. */
  grantAppPermissions: { params: GrantAppPermissionsSchema, result: z.array(AppPermissionSchema) },
  /** tools/call from an app: its own server, visibility "app", through consent. */
  appCallTool: { params: AppCallToolSchema, result: AppToolResultSchema },
  /** resources/read from an app, on its own server only. */
  appReadResource: { params: AppReadResourceSchema, result: AppResourceResultSchema },
  /** ui/open-link: the system browser, after consent showing the full URL. */
  appOpenLink: { params: AppOpenLinkSchema, result: z.null() },
  /** notifications/message from an app, into its server's log. */
  appLog: { params: AppLogSchema, result: z.null() },
  /** ui/update-model-context: kept for the conversation's next user message. */
  appUpdateModelContext: { params: AppModelContextSchema, result: z.null() },
} as const;
