import { useAppState, useHostReachable } from '../../store/store-context.js';
import { ServerListItem } from './server-list-item.js';
import { ConfigMenu } from '../config/config-menu.js';

/** The left column: the app, the "Add server" button and every configured server. */
export function Sidebar({ onAddServer }: { onAddServer: () => void }) {
  const appInfo = useAppState((s) => s.appInfo);
  const serverNames = useAppState((s) => s.serverNames);
  const loaded = useAppState((s) => s.loaded);
  const reachable = useHostReachable();

  return (
    <nav className="sidebar" aria-label="Servers">
      <div className="sidebar__brand">
        <span className="sidebar__logo" aria-hidden="true" />
        <h1 className="sidebar__name">{appInfo?.name ?? 'MCP Host'}</h1>
        {appInfo && <span className="sidebar__version">v{appInfo.version}</span>}
      </div>
      <button
        type="button"
        className="btn btn--primary sidebar__add"
        onClick={onAddServer}
        disabled={!reachable}
      >
        <span className="btn__icon" aria-hidden="true">
          +
        </span>
        Add server
      </button>
      <ConfigMenu />
      <h2 className="sidebar__heading">Servers</h2>
      {serverNames.length > 0 ? (
        <ul className="server-list">
          {serverNames.map((name) => (
            <li key={name}>
              <ServerListItem name={name} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="sidebar__empty">{loaded ? 'No servers configured.' : 'Loading…'}</p>
      )}
    </nav>
  );
}
