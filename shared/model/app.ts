import { z } from 'zod';

export const ConfigStateSchema = z.object({
  /** Absolute path of the configuration file in use. */
  path: z.string(),
  /** Set when the file could not be read or is invalid; writes are refused until it is fixed. */
  error: z.string().optional(),
});
export type ConfigState = z.infer<typeof ConfigStateSchema>;

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
});
export type AppInfo = z.infer<typeof AppInfoSchema>;
