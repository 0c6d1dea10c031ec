import { useAppState } from '../../store/store-context.js';
import { Spinner } from '../common/spinner.js';

/** Shown while the headless WebSocket is down; the bridge retries on its own. */
export function ConnectionBanner() {
  const connection = useAppState((s) => s.connection);
  const hint = useAppState((s) => s.connectionHint);
  if (connection !== 'reconnecting') return null;

  return (
    <div className="banner banner--warning" role="status">
      <Spinner />
      <div className="banner__text">
        <strong>Reconnecting to the host…</strong>
        <span className="banner__detail">
          {hint ??
            'The connection was lost. Your servers keep running; this page catches up when it is back.'}
        </span>
      </div>
    </div>
  );
}
