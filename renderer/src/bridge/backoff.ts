/** First retry after a lost connection, in milliseconds. */
export const FIRST_RETRY_MS = 500;
/** Retries never wait longer than this. */
export const MAX_RETRY_MS = 5000;

/** The wait after `previousMs`: doubling from FIRST_RETRY_MS, capped at MAX_RETRY_MS. */
export function nextRetryDelay(previousMs: number | undefined): number {
  if (previousMs === undefined) return FIRST_RETRY_MS;
  return Math.min(previousMs * 2, MAX_RETRY_MS);
}
