import type { ServerSnapshot } from '../../../../shared/model/server.js';
import { useNow } from './use-now.js';

/** The crash a restarting server is recovering from, and a countdown to the next attempt. */
export function RestartNotice({ server }: { server: ServerSnapshot }) {
  const seconds = useSecondsUntil(server.restartAt);
  const crashes = server.crashCount ?? 1;
  const when =
    seconds === undefined || seconds <= 0 ? 'Restarting now' : `Restarting in ${String(seconds)} s`;
  return (
    <div className="notice notice--warning" role="status">
      <strong>{`${when}.`}</strong>{' '}
      <span>{`Crashed ${crashes === 1 ? 'once' : `${String(crashes)} times`} recently. `}</span>
      {server.error !== undefined && <span className="notice__detail">{server.error}</span>}
    </div>
  );
}

function useSecondsUntil(at: number | undefined): number | undefined {
  const now = useNow(at !== undefined);
  return at === undefined ? undefined : Math.ceil((at - now) / 1000);
}
