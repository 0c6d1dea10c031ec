import { useActions, useAppState } from '../../store/store-context.js';
import { plural } from '../../common/text.js';
import { StatusIndicator } from '../../common/status-indicator.js';
import { useElapsedSeconds } from './starting-notice.js';
import { formatSeconds } from './use-now.js';
import { TrustBadge } from './trust-badge.js';

/** One server in the sidebar: name, status and, when connected, how many tools it offers. */
export function ServerListItem({ name }: { name: string }) {
  const server = useAppState((s) => s.servers[name]);
  const selected = useAppState((s) => s.selectedServer === name);
  const { selectServer } = useActions();
  const elapsed = useElapsedSeconds(server?.status === 'connecting' ? server.startingSince : undefined);
  if (!server) return null;

  return (
    <button
      type="button"
      className={`server-item${server.status === 'sign-in-required' ? ' server-item--attention' : ''}`}
      aria-current={selected ? 'page' : undefined}
      onClick={() => {
        selectServer(name);
      }}
    >
      <span className="server-item__name">{server.name}</span>
      <span className="server-item__meta">
        <StatusIndicator status={server.status} />
        <TrustBadge server={server} />
        {server.status === 'connected' && (
          <span className="server-item__count">{plural(server.counts.tools, 'tool')}</span>
        )}
        {server.status === 'sign-in-required' && server.auth?.state === 'waiting' && (
          <span className="server-item__count" title="Waiting for the sign-in in your browser">
            waiting…
          </span>
        )}
        {elapsed !== undefined && elapsed >= 2 && (
          <span className="server-item__count" aria-live="off">
            {formatSeconds(elapsed)}
          </span>
        )}
      </span>
    </button>
  );
}
