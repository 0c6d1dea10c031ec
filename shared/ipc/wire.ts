import { z } from 'zod';
import { HostErrorValueSchema } from './result.js';

// Re-exported: the constants live in a zod-free module the renderer's first
// screen imports without loading zod.
export { MAX_FRAME_BYTES, MAX_FRAME_NESTINGS, WS_PATH } from './wire-constants.js';

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
