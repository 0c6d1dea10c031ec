import type { ServerSnapshot } from '../../../../shared/model/server.js';
import { formatSeconds, useNow } from './use-now.js';

/**
 * A server that is starting: how long it has been, out of how long it may
 * take, and, for a command run through a package launcher (npx, uvx, …),
 * that its first run may be downloading.
 */
export function StartingNotice({ server }: { server: ServerSnapshot }) {
  const elapsed = useElapsedSeconds(server.startingSince);
  const limit =
    server.connectTimeoutMs !== undefined ? Math.round(server.connectTimeoutMs / 1000) : undefined;
  return (
    <div className="notice notice--info starting-notice">
      <strong>Starting…</strong>{' '}
      {/* The ticking figure is not announced every second; the status line is read once. */}
      <span aria-live="off" className="starting-notice__elapsed">
        {elapsed !== undefined && formatSeconds(elapsed)}
        {limit !== undefined && ` of up to ${formatSeconds(limit)}`}
      </span>
      {server.launcher?.mayDownload === true && (
        <p className="notice__detail starting-notice__hint" role="status">
          {`The first run of ${server.launcher.name} may be downloading the package, which can take a minute or more. Later starts are faster.`}
        </p>
      )}
    </div>
  );
}

/** Whole seconds since `since`, ticking while it is set. */
export function useElapsedSeconds(since: number | undefined): number | undefined {
  const now = useNow(since !== undefined, 1000);
  return since === undefined ? undefined : Math.max(0, Math.floor((now - since) / 1000));
}
