import { z } from 'zod';
import { ServerSnapshotSchema } from '../../model/server.js';
import {
  InstallIdSchema,
  InstallPreviewSchema,
  InstallRequestSchema,
  PendingInstallSchema,
  PrepareRegistryInstallSchema,
  RegistryPageSchema,
  SearchRegistrySchema,
} from '../../model/registry.js';
import { none } from './common.js';

// The MCP registry and install links. The host prepares each install from what it fetched or
// received itself; the renderer names it by id and fills in values.
export const registryRequests = {
  /** One page of the registry's latest entries matching the query (the registry URL is a setting). */
  searchRegistry: { params: SearchRegistrySchema, result: RegistryPageSchema },
  /** Fetches one entry and holds it as a pending install: its options, values to ask, runtimes found. */
  prepareRegistryInstall: { params: PrepareRegistryInstallSchema, result: PendingInstallSchema },
  /** Installs received from links and not yet done or closed (a page that connects late shows them). */
  listPendingInstalls: { params: none, result: z.array(PendingInstallSchema) },
  /** The exact command or URL installing with these values would write and run (secrets masked). */
  previewInstall: { params: InstallRequestSchema, result: InstallPreviewSchema },
  /** Stores the secrets, saves the entry (after the launch confirmation) and starts it. */
  installServer: { params: InstallRequestSchema, result: ServerSnapshotSchema },
  /** The person closed a pending install without installing. */
  dismissInstall: { params: z.object({ id: InstallIdSchema }).strict(), result: z.null() },
} as const;
