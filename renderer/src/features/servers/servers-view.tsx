import { useState } from 'react';
import { AddServerDialog } from '../config/lazy.js';
import { Deferred } from '../../common/on-demand.js';
import { EmptyState } from '../../common/empty-state.js';
import { LoadingState } from '../../common/loading-state.js';
import { ServerDetail } from './server-detail.js';
import { Sidebar } from './sidebar.js';
import { useAppState } from '../../store/store-context.js';

/** The server manager: servers on the left, the config banner and the selected server on the right. */
export function ServersView() {
  const [adding, setAdding] = useState(false);
  const loaded = useAppState((s) => s.loaded);
  const loadError = useAppState((s) => s.loadError);
  const hasServers = useAppState((s) => s.serverNames.length > 0);
  const selectedServer = useAppState((s) => s.selectedServer);
  const stale = useAppState((s) => s.connection === 'reconnecting' || s.connection === 'failed');
  const openAdd = () => {
    setAdding(true);
  };

  let body;
  if (!loaded) body = <LoadingState error={loadError} />;
  else if (!hasServers) body = <EmptyState onAddServer={openAdd} />;
  else if (selectedServer !== undefined) body = <ServerDetail key={selectedServer} name={selectedServer} />;

  return (
    <div className="app">
      <Sidebar onAddServer={openAdd} />
      <div className="content">
        <main className={stale ? 'main main--stale' : 'main'}>{body}</main>
      </div>
      {adding && (
        <Deferred>
          <AddServerDialog
            onClose={() => {
              setAdding(false);
            }}
          />
        </Deferred>
      )}
    </div>
  );
}
