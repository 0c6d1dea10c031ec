/**
 * A moment relative to now, in the words the server view uses: "in 58 min",
 * "in 1 h 5 min", "in 40 s", "2 min ago", "now". Coarse on purpose: an
 * access token's lifetime matters to the minute, not the second, once it is
 * more than a minute away.
 */
export function formatRelative(at: number, now: number): string {
  const seconds = Math.round((at - now) / 1000);
  const size = Math.abs(seconds);
  if (size < 5) return 'now';
  const span = spanOf(size);
  return seconds > 0 ? `in ${span}` : `${span} ago`;
}

function spanOf(seconds: number): string {
  if (seconds < 60) return `${String(seconds)} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${String(minutes)} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) {
    const rest = minutes % 60;
    return rest === 0 ? `${String(hours)} h` : `${String(hours)} h ${String(rest)} min`;
  }
  return `${String(Math.round(hours / 24))} days`;
}

/** "m:ss" for a countdown of whole seconds (never negative). */
export function formatCountdown(seconds: number): string {
  const whole = Math.max(0, Math.ceil(seconds));
  const minutes = Math.floor(whole / 60);
  return `${String(minutes)}:${String(whole % 60).padStart(2, '0')}`;
}
