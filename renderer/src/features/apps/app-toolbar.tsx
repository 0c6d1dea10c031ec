import type { AppView } from '../../../../shared/model/apps.js';
import { ServerText } from '../../common/server-text.js';

/**
 * The strip above an app: says plainly that what follows is an app from a
 * server (an app can draw anything, so the boundary must be visible), and
 * switches full screen.
 */
export function AppToolbar({
  view,
  live,
  fullscreen,
  onToggleFullscreen,
}: {
  view: AppView;
  live: boolean;
  fullscreen: boolean;
  onToggleFullscreen: () => void;
}) {
  return (
    <div className="app-frame__bar">
      <span className="app-frame__label">
        <span className="app-frame__badge">App</span>
        <span className="app-frame__source" title={view.resourceUri}>
          <ServerText text={view.resourceUri} /> · from {view.server}
        </span>
        {!live && <span className="app-frame__state">starting…</span>}
      </span>
      <button type="button" className="btn" onClick={onToggleFullscreen}>
        {fullscreen ? 'Exit full screen' : 'Full screen'}
      </button>
    </div>
  );
}
