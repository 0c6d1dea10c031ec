import { useActions, useAppState } from '../../store/store-context.js';
import { Spinner } from '../../common/spinner.js';

/**
 * Shown while the headless host cannot be reached, saying what that means:
 * the servers it ran and any answer being written stopped with it if it
 * exited, and how to get back (start it again on the same data folder: the
 * page keeps the same address and reconnects by itself). After it is back,
 * a restarted host is announced once. When the page could not load its
 * checks of what the host sends (the bridge's "failed" state), it says so
 * and offers a reload, the only way back.
 */
export function ConnectionBanner() {
  const connection = useAppState((s) => s.connection);
  const hint = useAppState((s) => s.connectionHint);
  const wasConnected = useAppState((s) => s.loaded);
  const restartedAt = useAppState((s) => s.hostRestartedAt);
  const { dismissHostRestarted } = useActions();

  if (connection === 'failed') {
    return (
      <div className="banner banner--danger" role="alert">
        <span className="banner__icon" aria-hidden="true">
          !
        </span>
        <div className="banner__text">
          <strong>This page did not load completely</strong>
          <span className="banner__detail">
            The part that checks what the host sends could not be loaded, so this page shows nothing from the
            host and cannot work with it. Reload the page; if that does not help, open the address mcp-host
            serve printed again.
          </span>
        </div>
        <button
          type="button"
          className="btn"
          onClick={() => {
            window.location.reload();
          }}
        >
          Reload
        </button>
      </div>
    );
  }
  if (connection === 'reconnecting') {
    return (
      <div className="banner banner--warning" role="status">
        <Spinner />
        <div className="banner__text">
          <strong>{wasConnected ? 'The host is not reachable' : 'Cannot reach the host'}</strong>
          <span className="banner__detail">
            {hint ??
              (wasConnected
                ? 'If it stopped, the servers it ran stopped with it, and an answer being written was cut off. ' +
                  'Start it again on this computer (mcp-host serve, same data folder): this page reconnects by ' +
                  'itself. Until then, what you see is how things were, and actions are off.'
                : 'Trying again… If it does not come back, check that mcp-host serve is running and open the ' +
                  'address it printed.')}
          </span>
        </div>
      </div>
    );
  }
  if (restartedAt !== undefined && connection === 'connected') {
    return (
      <div className="banner banner--info" role="status">
        <div className="banner__text">
          <strong>The host was restarted</strong>
          <span className="banner__detail">
            Reconnected to a new host process (started {new Date(restartedAt).toLocaleTimeString()}). Servers
            were started again; an answer that was being written when it stopped is marked in its
            conversation.
          </span>
        </div>
        <button type="button" className="btn" onClick={dismissHostRestarted}>
          Dismiss
        </button>
      </div>
    );
  }
  return null;
}
