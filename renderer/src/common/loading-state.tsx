import type { HostErrorValue } from '../../../shared/ipc/result.js';
import { Spinner } from './spinner.js';

/** Before the first snapshot: waiting for the host, or why it did not answer. */
export function LoadingState({ error }: { error: HostErrorValue | undefined }) {
  if (error) {
    return (
      <div className="empty-state">
        <h2>The host did not answer</h2>
        <div className="inline-alert" role="alert">
          {error.message}
        </div>
      </div>
    );
  }
  return (
    <div className="empty-state empty-state--quiet" role="status">
      <Spinner />
      <p>Connecting to the host…</p>
    </div>
  );
}
