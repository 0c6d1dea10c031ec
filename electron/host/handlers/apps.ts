import type { AppRequests } from '../apps/app-requests.js';
import type { AppViews } from '../apps/app-views.js';
import type { DomainHandlers } from '../ipc/handlers.js';

/** The handlers of the MCP Apps requests. */
export function appHandlers(views: AppViews, requests: AppRequests): DomainHandlers<'apps'> {
  return {
    openAppView: (request) => views.open(request),
    closeAppView: ({ viewId }) => {
      views.close(viewId);
      return Promise.resolve(null);
    },
    grantAppPermissions: ({ viewId, permissions }) => Promise.resolve(views.grant(viewId, permissions)),
    appCallTool: ({ viewId, name, arguments: args }) => requests.callTool(viewId, name, args),
    appReadResource: ({ viewId, uri }) => requests.readResource(viewId, uri),
    appOpenLink: async ({ viewId, url }) => {
      await requests.openLink(viewId, url);
      return null;
    },
    appLog: ({ viewId, level, logger, data, source }) => {
      requests.log(viewId, level, logger, data, source);
      return Promise.resolve(null);
    },
    appUpdateModelContext: ({ viewId, content, structuredContent }) => {
      requests.updateModelContext(viewId, { content, structuredContent });
      return Promise.resolve(null);
    },
  };
}
