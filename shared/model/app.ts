import { z } from 'zod';

export const ConfigStateSchema = z.object({
  /** Absolute path of the configuration file in use. */
  path: z.string(),
  /** Set when the file could not be read or is invalid; writes are refused until it is fixed. */
  error: z.string().optional(),
});
export type ConfigState = z.infer<typeof ConfigStateSchema>;

/**
 * Where saved credentials go and how they are protected, in the host's own
 * words (electron/host/secrets/storage-description.ts), shown wherever a
 * credential is about to be stored.
 */
export const SecretStorageInfoSchema = z.object({
  kind: z.enum(['os-keychain', 'encrypted', 'obfuscated-file']),
  sentence: z.string().max(400),
});
export type SecretStorageInfo = z.infer<typeof SecretStorageInfoSchema>;

export const AppInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  /** "electron" in the desktop app, "headless" when served to a browser. */
  shell: z.enum(['electron', 'headless']),
  platform: z.string(),
  /**
   * Random per start of the host process: a page that reconnects and finds a
   * new one knows the host restarted (its servers and running turns with it).
   */
  instanceId: z.string().optional(),
  /** Epoch ms when this host process started. */
  startedAt: z.number().optional(),
  /** Where saved credentials (API key, OAuth tokens, secret values) are kept. */
  secretStorage: SecretStorageInfoSchema.optional(),
});
export type AppInfo = z.infer<typeof AppInfoSchema>;
