import { z } from 'zod';

/** The MCP logging levels (RFC 5424 severities), least severe first. */
export const LOG_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;
export const LogLevelSchema = z.enum(LOG_LEVELS);
export type LogLevel = z.infer<typeof LogLevelSchema>;

/**
 * Where a log line came from: the process's stderr, the server's
 * notifications/message, the host, the package launcher the command runs
 * through (npx, uvx, … on the same stderr), or a stdout line that was not an
 * MCP message.
 */
export const LogSourceSchema = z.enum(['stderr', 'server', 'host', 'launcher', 'stdout']);
export type LogSource = z.infer<typeof LogSourceSchema>;

/** One line of a server's log. `seq` grows per server, so the renderer can drop duplicates. */
export const LogEntrySchema = z.object({
  seq: z.number().int(),
  time: z.number(),
  source: LogSourceSchema,
  level: LogLevelSchema,
  /** The `logger` of a notifications/message, when the server named one. */
  logger: z.string().optional(),
  text: z.string(),
});
export type LogEntry = z.infer<typeof LogEntrySchema>;

export const ServerLogBatchSchema = z.object({
  server: z.string(),
  entries: z.array(LogEntrySchema),
  /**
   * Lines written since the previous batch that were not sent, because the
   * server wrote faster than a view can show (they are still in the host's
   * log: getServerLogs returns them). The entries are the newest ones.
   */
  skipped: z.number().int().nonnegative().optional(),
});
export type ServerLogBatch = z.infer<typeof ServerLogBatchSchema>;

export const ServerLogsSchema = z.object({
  entries: z.array(LogEntrySchema),
  /** The level last set with logging/setLevel since the server connected, if any. */
  level: LogLevelSchema.optional(),
});
export type ServerLogs = z.infer<typeof ServerLogsSchema>;

/** Whether `level` is at least as severe as `minimum`. */
export const atLeast = (level: LogLevel, minimum: LogLevel): boolean =>
  LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(minimum);
