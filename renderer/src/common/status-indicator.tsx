import type { ServerStatus } from '../../../shared/model/server.js';
import { STATUS_LABELS } from './status.js';
import { useHostReachable } from '../store/store-context.js';

/**
 * A colored dot and the status in words. The words are their own element so
 * that "Connected" can be found as exact text. While the host cannot be
 * reached the status is unknown (a crashed host took its servers with it), so
 * it says that instead of the last status it reported.
 */
export function StatusIndicator({ status, pill = false }: { status: ServerStatus; pill?: boolean }) {
  const reachable = useHostReachable();
  const shown = reachable ? status : 'unknown';
  return (
    <span
      className={`status status--${shown}${pill ? ' status--pill' : ''}`}
      title={reachable ? undefined : `Last known: ${STATUS_LABELS[status]}. The host is not reachable.`}
    >
      <span className="status__dot" aria-hidden="true" />
      <span className="status__label">{reachable ? STATUS_LABELS[status] : 'Unknown'}</span>
    </span>
  );
}
