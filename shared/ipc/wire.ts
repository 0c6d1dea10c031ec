import { z } from 'zod';
import { HostErrorValueSchema } from './result.js';

/**
 * Frames of the headless WebSocket. The browser sends requests; the host
 * answers each with the same id and pushes events with no id.
 */
export const ClientFrameSchema = z
  .object({
    id: z.number().int().nonnegative(),
    method: z.string().max(64),
    params: z.unknown(),
  })
  .strict();
export type ClientFrame = z.infer<typeof ClientFrameSchema>;

export const ServerFrameSchema = z.union([
  z.object({
    id: z.number(),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), value: z.unknown() }),
      z.object({ ok: z.literal(false), error: HostErrorValueSchema }),
    ]),
  }),
  z.object({ event: z.string(), payload: z.unknown() }),
]);
export type ServerFrame = z.infer<typeof ServerFrameSchema>;

/** Name of the query parameter that carries the headless session token. */
export const TOKEN_PARAM = 'token';
/** Path of the headless WebSocket endpoint. */
export const WS_PATH = '/ipc';

/**
 * Largest WebSocket frame the host accepts (UTF-8 bytes). The contract's
 * size limits are chosen so that every valid request fits in it once encoded
 * (test/unit/frame-limits.test.ts checks the largest ones); the bridge refuses
 * a larger request with a clear error value before sending it.
 */
export const MAX_FRAME_BYTES = 32 * 1024 * 1024;

/**
 * Most `{` and `[` characters a frame may contain (inside strings too): the
 * host refuses frames with more before parsing them (electron/headless/
 * frame-guard.ts), and the bridge refuses to send them, with a clear error.
 */
export const MAX_FRAME_NESTINGS = 1_000_000;
