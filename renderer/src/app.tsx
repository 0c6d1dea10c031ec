import { useState } from 'react';
import { AddServerDialog } from './components/add-server/add-server-dialog.js';
import { ConfigBanner } from './components/banners/config-banner.js';
import { ConnectionBanner } from './components/banners/connection-banner.js';
import { EmptyState } from './components/empty-state.js';
import { ClientConsentDialogs } from './components/sampling/client-consent-dialogs.js';
import { LoadingState } from './components/loading-state.js';
import { ServerDetail } from './components/server/server-detail.js';
import { Sidebar } from './components/sidebar/sidebar.js';
import { useAppState } from './store/store-context.js';

/** The window: servers on the left, banners and the selected server on the right. */
export function App() {
  const [adding, setAdding] = useState(false);
  const loaded = useAppState((s) => s.loaded);
  const loadError = useAppState((s) => s.loadError);
  const hasServers = useAppState((s) => s.serverNames.length > 0);
  const selectedServer = useAppState((s) => s.selectedServer);
  const stale = useAppState((s) => s.connection === 'reconnecting');
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
        <ConnectionBanner />
        <ConfigBanner />
        <main className={stale ? 'main main--stale' : 'main'}>{body}</main>
      </div>
      <ClientConsentDialogs />
      {adding && (
        <AddServerDialog
          onClose={() => {
            setAdding(false);
          }}
        />
      )}
    </div>
  );
}
