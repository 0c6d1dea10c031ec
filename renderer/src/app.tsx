import { ConfigBanner } from './components/banners/config-banner.js';
import { ConnectionBanner } from './components/banners/connection-banner.js';
import { ChatView } from './components/chat/chat-view.js';
import { AttentionTitle } from './components/consent/attention-title.js';
import { ConsentQueue } from './components/consent/consent-queue.js';
import { SettingsView } from './components/settings/settings-view.js';
import { Rail } from './components/shell/rail.js';
import { ServersView } from './components/shell/servers-view.js';
import { useChat } from './store/chat-context.js';

/** The window: the rail (Chat, Servers, Settings), then the chosen view; consent dialogs over everything. */
export function App() {
  const view = useChat((s) => s.view);
  return (
    <div className="shell">
      <Rail />
      <div className="shell__view">
        <ConnectionBanner />
        <ConfigBanner />
        {view === 'chat' && <ChatView />}
        {view === 'servers' && <ServersView />}
        {view === 'settings' && <SettingsView />}
      </div>
      <ConsentQueue />
      <AttentionTitle />
    </div>
  );
}
