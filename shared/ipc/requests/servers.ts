import { z } from 'zod';
import { ServerNameSchema } from '../../model/config.js';
import { ServerSnapshotSchema, ToolCallResultSchema } from '../../model/server.js';
import { LogLevelSchema, ServerLogsSchema } from '../../model/logs.js';
import { none, byName, CallIdSchema, MAX_ARGUMENTS_CHARS } from './common.js';

// Servers: lifecycle, sign-in, tool calls the person makes, logs.
export const serversRequests = {
  listServers: { params: none, result: z.array(ServerSnapshotSchema) },
  /** Remove a server from the configuration; its process is ended first. */
  removeServer: { params: byName, result: z.null() },
  startServer: { params: byName, result: ServerSnapshotSchema },
  stopServer: { params: byName, result: ServerSnapshotSchema },
  /** Stop and start again; clears the crash count (also after automatic restarts gave up). */
  restartServer: { params: byName, result: ServerSnapshotSchema },
  /**
   * OAuth sign-in: opens the authorization page in the system browser and
   * resolves at once with the server in state "waiting"; the outcome arrives
   * as serverChanged events (connected, or "sign-in-required" with a message).
   */
  signInServer: { params: byName, result: ServerSnapshotSchema },
  /** Stops waiting for the browser; the server stays "sign-in-required". */
  cancelSignIn: { params: byName, result: ServerSnapshotSchema },
  /** Revokes the tokens where the authorization server offers revocation, then forgets them. */
  signOutServer: { params: byName, result: ServerSnapshotSchema },
  /**
   * Call a tool with arguments given as JSON text. The host parses the text
   * and checks it against the tool's inputSchema before anything is sent.
   */
  callTool: {
    params: z
      .object({
        server: ServerNameSchema,
        tool: z.string().min(1).max(256),
        /** At most 8 Mi characters: at most 24 MiB encoded, so a valid call always fits in a frame. */
        argumentsJson: z
          .string()
          .max(MAX_ARGUMENTS_CHARS, 'The arguments are too large: at most 8 MB of JSON can be sent'),
        /** Caller-chosen id: enables cancelToolCall and toolCallProgress events for this call. */
        callId: CallIdSchema.optional(),
      })
      .strict(),
    result: ToolCallResultSchema,
  },

  /**
   * Cancel a running call (the server gets notifications/cancelled; the call
   * fails with code "cancelled"). False when it had already finished.
   */
  cancelToolCall: { params: z.object({ callId: CallIdSchema }).strict(), result: z.boolean() },
  /** A server's kept log (stderr, notifications/message, lifecycle), oldest first. */
  getServerLogs: { params: byName, result: ServerLogsSchema },
  /** logging/setLevel; refused when the server did not declare the logging capability. */
  setLogLevel: { params: byName.extend({ level: LogLevelSchema }).strict(), result: z.null() },
} as const;
