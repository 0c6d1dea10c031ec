import type { ServerStatus } from '../../../../shared/model/server.js';
import { STATUS_LABELS } from '../../lib/status.js';

/**
 * A colored dot and the status in words. The words are their own element so
 * that "Connected" can be found as exact text.
 */
export function StatusIndicator({ status, pill = false }: { status: ServerStatus; pill?: boolean }) {
  return (
    <span className={`status status--${status}${pill ? ' status--pill' : ''}`}>
      <span className="status__dot" aria-hidden="true" />
      <span className="status__label">{STATUS_LABELS[status]}</span>
    </span>
  );
}
