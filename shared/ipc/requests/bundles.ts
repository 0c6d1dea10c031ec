import { z } from 'zod';
import { ServerSnapshotSchema } from '../../model/server.js';
import {
  BundleFieldKeySchema,
  BundleInstallSchema,
  BundlePreviewSchema,
  BundleSourceSchema,
  BundleTokenSchema,
  BundleUploadChunkSchema,
} from '../../model/bundle.js';
import { byName } from './common.js';

// MCP bundles (.mcpb). A bundle reaches the host as an upload or through the host's own
// file dialog, never as a path; the host keeps it behind a token until it is installed or discarded.
export const bundlesRequests = {
  /** One piece of a bundle the page uploads (in order; the first without an uploadId). */
  uploadBundleChunk: {
    params: BundleUploadChunkSchema,
    result: z.object({ uploadId: BundleTokenSchema, received: z.number().int() }),
  },
  /** Opens an uploaded bundle, or one picked in the host's file dialog (null when cancelled), and shows it. */
  previewBundle: {
    params: z.object({ source: BundleSourceSchema }).strict(),
    result: BundlePreviewSchema.nullable(),
  },
  /** The host's folder or file dialog for a setting of an open bundle; null when cancelled or unavailable. */
  pickBundlePath: {
    params: z.object({ token: BundleTokenSchema, key: BundleFieldKeySchema }).strict(),
    result: z.object({ path: z.string().nullable() }),
  },
  /** Installs (or updates) an open bundle with the person's settings, after the launch confirmation. */
  installBundle: { params: BundleInstallSchema, result: ServerSnapshotSchema },
  /** Closes an open bundle without installing it. */
  discardBundle: { params: z.object({ token: BundleTokenSchema }).strict(), result: z.null() },
  /** Removes a server installed from a bundle: its entry, its files and its stored secrets. */
  uninstallBundle: { params: byName, result: z.null() },
} as const;
