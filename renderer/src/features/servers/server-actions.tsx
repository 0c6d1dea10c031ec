import { useState } from 'react';
import type { HostErrorValue, Result } from '../../../../shared/ipc/result.js';
import type { ServerSnapshot } from '../../../../shared/model/server.js';
import { isRunning } from '../../common/status.js';
import { useActions, useHostReachable } from '../../store/store-context.js';
import { Spinner } from '../../common/spinner.js';
import { RemoveServerDialog } from './lazy-parts.js';
import { Deferred } from '../../common/on-demand.js';

type Busy = 'start' | 'stop' | 'restart' | undefined;

/** Stop, Start and Restart (whichever apply) and Remove, which asks first. */
export function ServerActions({ server }: { server: ServerSnapshot }) {
  const { startServer, stopServer, restartServer } = useActions();
  const reachable = useHostReachable();
  const [busy, setBusy] = useState<Busy>();
  const [error, setError] = useState<HostErrorValue>();
  const [confirmRemove, setConfirmRemove] = useState(false);
  const running = isRunning(server.status);
  const canStart = server.status === 'stopped';
  // Restart also clears the crash count, so it is the way back after automatic restarts gave up.
  const canRestart =
    server.status === 'connected' || server.status === 'restarting' || server.status === 'failed';

  const run = async (
    kind: Exclude<Busy, undefined>,
    action: (name: string) => Promise<Result<ServerSnapshot>>,
  ) => {
    setBusy(kind);
    setError(undefined);
    const result = await action(server.name);
    setBusy(undefined);
    if (!result.ok) setError(result.error);
  };

  return (
    <div className="server-actions">
      {running && (
        <button
          type="button"
          className="btn"
          disabled={busy !== undefined || !reachable}
          onClick={() => {
            void run('stop', stopServer);
          }}
        >
          {busy === 'stop' && <Spinner />}
          Stop
        </button>
      )}
      {canRestart && (
        <button
          type="button"
          className="btn"
          disabled={busy !== undefined || !reachable}
          onClick={() => {
            void run('restart', restartServer);
          }}
        >
          {busy === 'restart' && <Spinner />}
          Restart
        </button>
      )}
      {canStart && (
        <button
          type="button"
          className="btn"
          disabled={busy !== undefined || !reachable}
          onClick={() => {
            void run('start', startServer);
          }}
        >
          {busy === 'start' && <Spinner />}
          Start
        </button>
      )}
      {/* A bundle's server is uninstalled instead (bundles/bundle-origin.tsx). */}
      {server.bundle === undefined && (
        <button
          type="button"
          className="btn btn--danger-quiet"
          disabled={!reachable}
          onClick={() => {
            setConfirmRemove(true);
          }}
        >
          Remove
        </button>
      )}
      {error && (
        <p className="server-actions__error" role="alert">
          {error.message}
        </p>
      )}
      {confirmRemove && (
        <Deferred>
          <RemoveServerDialog
            name={server.name}
            onClose={() => {
              setConfirmRemove(false);
            }}
          />
        </Deferred>
      )}
    </div>
  );
}
