import { MAX_FRAME_NESTINGS } from '../../shared/ipc/wire.js';

/*
 * Why a limit on `{` and `[` (MAX_FRAME_NESTINGS, shared with the bridge):
 * JSON.parse of a frame built from millions of tiny objects blocks the event
 * loop for most of a second (more on a busy machine), while every request of
 * the contract needs few: even a tool call's arguments travel as one string.
 * Counting bytes is a cheap upper bound (brackets inside strings count too)
 * that keeps the worst frame's parse to a fraction of that;
 * `npm run bench -- headless-frames` measures both.
 */
export { MAX_FRAME_NESTINGS };

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;

/** Whether a frame has more opening brackets than any request of the contract needs. */
export function tooManyValues(frame: Buffer, limit = MAX_FRAME_NESTINGS): boolean {
  // Short frames cannot reach the limit; skip the scan.
  if (frame.length <= limit) return false;
  let count = 0;
  for (let i = 0; i < frame.length; i++) {
    const byte = frame[i];
    if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      count++;
      if (count > limit) return true;
    }
  }
  return false;
}
