import { z } from 'zod';
import { ServerNameSchema } from '../../model/config.js';
import { ServerSnapshotSchema } from '../../model/server.js';
import { ConfigStateSchema } from '../../model/app.js';
import { ServerInputSchema } from '../../model/server-input.js';
import { ServerSkillsSchema } from '../../model/skills.js';
import {
  ImportLocationSchema,
  ImportPreviewSchema,
  ImportRequestSchema,
  ImportResultSchema,
  ImportSourceSchema,
} from '../../model/import.js';
import { none, byName } from './common.js';

/** A list as sent; its entries are checked by the host (shared/model/sandbox.ts) so the refusal names the key. */
const SandboxListParam = z.array(z.string().max(10_000)).max(1000);

// The configuration file: entries, the raw text, imports from other hosts.
export const configRequests = {
  getConfigState: { params: none, result: ConfigStateSchema },
  /** Re-read the configuration file (after the user fixed or edited it). */
  reloadConfig: { params: none, result: ConfigStateSchema },
  /** The stored entry of one server, as the edit form shows it. */
  getServerInput: { params: byName, result: ServerInputSchema },
  /**
   * Adds (no `originalName`) or replaces a server (stdio or remote) and
   * (re)starts it; other keys of a replaced entry are kept.
   */
  saveServer: {
    params: z.object({ originalName: ServerNameSchema.optional(), input: ServerInputSchema }).strict(),
    result: ServerSnapshotSchema,
  },
  /** Sets `disabled`: a disabled server is stopped and not started at launch. */
  setServerEnabled: {
    params: byName.extend({ enabled: z.boolean() }).strict(),
    result: ServerSnapshotSchema,
  },
  /**
   * Sets the sandbox of a local server: `sandboxed` ("Run without sandbox" is
   * `false`) and any of its lists, each replaced whole. Checked by the host
   * with the config file's schema; a malformed value is refused naming its key
   * and nothing is written. A running server restarts.
   */
  setServerSandboxed: {
    params: byName
      .extend({
        sandboxed: z.boolean().optional(),
        allowRead: SandboxListParam.optional(),
        allowWrite: SandboxListParam.optional(),
        allowHosts: SandboxListParam.optional(),
      })
      .strict(),
    result: ServerSnapshotSchema,
  },
  /** Adds a tool to (or removes it from) `disabledTools`. */
  setToolEnabled: {
    params: byName.extend({ tool: z.string().min(1).max(256), enabled: z.boolean() }).strict(),
    result: ServerSnapshotSchema,
  },
  /** Sets `skills: false` (or removes it): whether the server's verified skills are offered to Claude. */
  setSkillsEnabled: {
    params: byName.extend({ enabled: z.boolean() }).strict(),
    result: ServerSkillsSchema,
  },
  /** The configuration file's text, exactly as stored. */
  getRawConfig: { params: none, result: z.object({ path: z.string(), text: z.string() }) },
  /** Validates and writes the whole file, then reloads and reconnects; invalid text is never written. */
  saveRawConfig: {
    params: z.object({ text: z.string().max(4 * 1024 * 1024) }).strict(),
    result: ConfigStateSchema,
  },
  /** The other hosts' configuration files the host looked for, and whether each exists. */
  listImportLocations: { params: none, result: z.array(ImportLocationSchema) },
  /** What would be imported from a known file (read by the host) or from pasted text. */
  previewImport: {
    params: z
      .object({
        source: ImportSourceSchema,
        text: z
          .string()
          .max(1024 * 1024)
          .optional(),
      })
      .strict(),
    result: ImportPreviewSchema,
  },
  /** Imports the chosen servers (renamed or skipped), asking before any stdio server is started. */
  importServers: { params: ImportRequestSchema, result: ImportResultSchema },
} as const;
