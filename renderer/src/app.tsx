import { ConfigBanner } from './features/shell/config-banner.js';
import { ConnectionBanner } from './features/shell/connection-banner.js';
import { ChatView } from './features/chat/chat-view.js';
import { AttentionTitle } from './features/consent/attention-title.js';
import { ConsentQueue } from './features/consent/consent-queue.js';
import { Rail } from './features/shell/rail.js';
import { BundleDropTarget } from './features/bundles/bundle-drop-target.js';
import { useChat } from './features/chat/chat-context.js';
import { Deferred, ViewLoading } from './common/on-demand.js';
import { BrowseView } from './features/browse/lazy.js';
import { ServersView } from './features/servers/lazy.js';
import { SettingsView } from './features/settings/lazy.js';
import { TasksView } from './features/tasks/lazy.js';
import { InstallLinkPrompt } from './features/browse/install-link-prompt.js';
import { TaskNoticesBar } from './features/chat/task-notices-bar.js';

/**
 * The window: the rail (Chat, Servers, Browse, Tasks, Settings), then the chosen view; consent dialogs
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
        <TaskNoticesBar />
        {view === 'chat' && <ChatView />}
        <Deferred fallback={<ViewLoading />}>
          {view === 'servers' && <ServersView />}
          {view === 'browse' && <BrowseView />}
          {view === 'tasks' && <TasksView />}
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
