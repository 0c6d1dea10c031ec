import type { HostHandlers } from '../ipc/handlers.js';
import type { AppRequests } from './app-requests.js';
import type { AppViews } from './app-views.js';

type AppRequestName =
  | 'openAppView'
  | 'closeAppView'
  | 'grantAppPermissions'
  | 'appCallTool'
  | 'appReadResource'
  | 'appOpenLink'
  | 'appLog'
  | 'appUpdateModelContext';

/** The handlers of the MCP Apps requests. */
export function appHandlers(views: AppViews, requests: AppRequests): Pick<HostHandlers, AppRequestName> {
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
