import { APP_MIME_TYPE, UI_EXTENSION_ID } from '../../../../shared/model/tool-meta.js';
import type { ClientFeature } from '../client-feature.js';

/**
 * MCP Apps: the client declares the UI extension, so tools may name ui://
 * views, which the host shows sandboxed (electron/host/apps/). A declaration
 * only: the views are fetched and run by the apps module, not by handlers here.
 */
export const appsFeature: ClientFeature = {
  name: 'apps',
  capabilities: { extensions: { [UI_EXTENSION_ID]: { mimeTypes: [APP_MIME_TYPE] } } },
};
