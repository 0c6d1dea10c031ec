import { formatCountdown } from './relative-time.js';
import { useNow } from './use-now.js';

/**
 * How long the host still waits for the browser to come back, ticking each
 * second. Not announced every tick (the panel's live region says "waiting"
 * once); the text is there for whoever reads it.
 */
export function WaitingCountdown({ until }: { until: number }) {
  const now = useNow(true, 1000);
  const left = (until - now) / 1000;
  return (
    <span className="sign-in__countdown" aria-live="off">
      {left > 0 ? `${formatCountdown(left)} left before the sign-in is given up.` : 'Giving up…'}
    </span>
  );
}
