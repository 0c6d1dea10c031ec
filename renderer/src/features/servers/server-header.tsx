import type { ServerSnapshot } from '../../../../shared/model/server.js';
import { StatusIndicator } from '../../common/status-indicator.js';
import { TrustBadge } from './trust-badge.js';
import { SandboxBadge } from './sandbox-badge.js';
import { ServerActions } from './server-actions.js';
import { BundleOrigin } from '../bundles/bundle-origin.js';

/** The server's name, its status in words and the actions that apply now. */
export function ServerHeader({ server }: { server: ServerSnapshot }) {
  const title = server.serverInfo?.title;
  return (
    <header className="server-header">
      <div className="server-header__title">
        <h2>{server.name}</h2>
        <StatusIndicator status={server.status} pill />
        <TrustBadge server={server} />
        <SandboxBadge server={server} />
      </div>
      {title !== undefined && title !== server.name && <p className="server-header__subtitle">{title}</p>}
      <ServerActions server={server} />
      <BundleOrigin server={server} />
    </header>
  );
}
