import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.js';
import { getHost, getHostConnection } from './bridge/get-host.js';
import { createAppStore } from './store/app-store.js';
import { ChatStoreProvider } from './features/chat/chat-context.js';
import { createChatStore } from './features/chat/chat-store.js';
import { ConsentStoreProvider } from './features/consent/consent-context.js';
import { createConsentStore } from './features/consent/consent-store.js';
import { StoreProvider } from './store/store-context.js';
import { AreaProvider } from './store/area-context.js';
import { BundleInstallStoreProvider } from './features/bundles/bundle-install-context.js';
import { createBundleInstallStore } from './features/bundles/bundle-install.js';
import { LogsStoreProvider } from './features/logs/logs-context.js';
import { FeaturesStoreProvider } from './features/resources-prompts/features-context.js';
import { createFeaturesStore } from './features/resources-prompts/features-store.js';
import { createLogsStore } from './features/logs/logs-store.js';
import { RulesStoreProvider } from './features/consent/rules-context.js';
import { createRulesStore } from './features/consent/rules-store.js';
import { InstallStoreProvider } from './features/browse/install-context.js';
import { createInstallStore } from './features/browse/install-store.js';
import { TasksStoreProvider } from './features/tasks/tasks-context.js';
import { createTasksStore } from './features/tasks/tasks-store.js';
import './styles/tokens.css';
import './styles/base.css';
import './styles/controls.css';
import './styles/layout.css';
import './styles/dialog.css';
import './features/servers/server.css';
import './features/servers/sign-in.css';
import './features/tools/tools.css';
import './features/tools/result.css';
import './features/config/config.css';
import './features/shell/shell.css';
import './features/chat/chat.css';
import './features/chat/chat-scale.css';
import './features/markdown/markdown.css';
import './features/consent/consent.css';
import './features/settings/settings.css';
import './features/resources-prompts/features.css';
import './features/consent/consent-dialogs.css';
import './features/apps/apps.css';
import './features/bundles/bundles.css';
import './features/browse/browse.css';
import './features/tasks/tasks.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// Every store is made here, once for the window's lifetime, outside React so
// StrictMode's double effects cannot subscribe it to the host twice, and
// reaches the components through its own provider and hooks.
const { store } = createAppStore(getHost(), getHostConnection());
const area = { host: getHost() };
const logs = createLogsStore(getHost());
const features = createFeaturesStore(getHost());
const bundleInstall = createBundleInstallStore();
const chat = createChatStore(getHost(), getHostConnection());
const consent = createConsentStore(getHost(), getHostConnection());
const rules = createRulesStore(getHost(), getHostConnection());
const installs = createInstallStore(getHost(), getHostConnection());
const tasks = createTasksStore(getHost(), getHostConnection());

createRoot(root).render(
  <StrictMode>
    <StoreProvider store={store}>
      <AreaProvider value={area}>
        <ChatStoreProvider store={chat.store}>
          <ConsentStoreProvider store={consent.store}>
            <RulesStoreProvider store={rules.store}>
              <InstallStoreProvider store={installs.store}>
                <LogsStoreProvider store={logs.store}>
                  <FeaturesStoreProvider store={features.store}>
                    <BundleInstallStoreProvider store={bundleInstall}>
                      <TasksStoreProvider store={tasks.store}>
                        <App />
                      </TasksStoreProvider>
                    </BundleInstallStoreProvider>
                  </FeaturesStoreProvider>
                </LogsStoreProvider>
              </InstallStoreProvider>
            </RulesStoreProvider>
          </ConsentStoreProvider>
        </ChatStoreProvider>
      </AreaProvider>
    </StoreProvider>
  </StrictMode>,
);
