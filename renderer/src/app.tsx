import { ConfigBanner } from './components/banners/config-banner.js';
import { ConnectionBanner } from './components/banners/connection-banner.js';
import { ChatView } from './components/chat/chat-view.js';
import { AttentionTitle } from './components/consent/attention-title.js';
import { ConsentQueue } from './components/consent/consent-queue.js';
import { Rail } from './components/shell/rail.js';
import { BundleDropTarget } from './components/bundles/bundle-drop-target.js';
import { useChat } from './store/chat-context.js';
import { Deferred, ViewLoading } from './lazy/on-demand.js';
import { BrowseView, ServersView, SettingsView } from './lazy/views.js';
import { InstallLinkPrompt } from './components/browse/install-link-prompt.js';

/**
 * The window: the rail (Chat, Servers, Browse, Settings), then the chosen view; consent dialogs
 * and installs that came from a link over everything.
 */
export function App() {
  const view = useChat((s) => s.view);
  return (
    <div className="shell">
      <Rail />
      <div className="shell__view">
        <ConnectionBanner />
        <ConfigBanner />
        {view === 'chat' && <ChatView />}
        <Deferred fallback={<ViewLoading />}>
          {view === 'servers' && <ServersView />}
          {view === 'browse' && <BrowseView />}
          {view === 'settings' && <SettingsView />}
        </Deferred>
      </div>
      <BundleDropTarget />
      <ConsentQueue />
      <InstallLinkPrompt />
      <AttentionTitle />
    </div>
  );
}
