/*
 * The headless WebSocket's address and limits, without its frame schemas
 * (wire.ts), so that code on the renderer's first screen can use them without
 * loading zod.
 */

/** Path of the headless WebSocket endpoint. */
export const WS_PATH = '/ipc';

/**
 * Largest WebSocket frame the host accepts (UTF-8 bytes). The contract's
 * size limits are chosen so that every valid request fits in it once encoded
 * (test/unit/shared/ipc/contract.test.ts checks the largest ones); the bridge refuses
 * a larger request with a clear error value before sending it.
 */
export const MAX_FRAME_BYTES = 32 * 1024 * 1024;

/**
 * Most `{` and `[` characters a frame may contain (inside strings too): the
 * host refuses frames with more before parsing them (electron/headless/
 * frame-guard.ts), and the bridge refuses to send them, with a clear error.
 */
export const MAX_FRAME_NESTINGS = 1_000_000;
