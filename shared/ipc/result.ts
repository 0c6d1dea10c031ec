import { z } from 'zod';

/**
 * Error codes that cross the IPC boundary. A code is for programs (tests, the
 * CLI's exit status); the message is for people and is always one line.
 */
export const ErrorCodeSchema = z.enum([
  'invalid_params',
  'invalid_arguments',
  'invalid_json',
  'not_found',
  'conflict',
  'config_invalid',
  'connection_failed',
  'not_connected',
  'server_exited',
  'timeout',
  'cancelled',
  'denied',
  /** A remote server needs an OAuth sign-in (or the sign-in failed). */
  'sign_in_required',
  'protocol_error',
  'no_api_key',
  'internal',
]);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

export const HostErrorValueSchema = z.object({
  code: ErrorCodeSchema,
  message: z.string(),
});
/** An error as a value: what the renderer gets instead of a rejected promise. */
export type HostErrorValue = z.infer<typeof HostErrorValueSchema>;

/** Every request answers with one of these; nothing crosses the boundary as a throw. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: HostErrorValue };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const err = (code: ErrorCode, message: string): Result<never> => ({
  ok: false,
  error: { code, message },
});

/** Schema for the envelope itself, used where a result arrives over a wire. */
export const resultSchema = <T extends z.ZodType>(value: T) =>
  z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), value }),
    z.object({ ok: z.literal(false), error: HostErrorValueSchema }),
  ]);
