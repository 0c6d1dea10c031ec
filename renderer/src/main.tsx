import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.js';
import { getHost, getHostConnection } from './bridge/get-host.js';
import { createAppStore } from './store/app-store.js';
import { ChatStoreProvider } from './store/chat-context.js';
import { createChatStore } from './store/chat-store.js';
import { ConsentStoreProvider } from './store/consent-context.js';
import { createConsentStore } from './store/consent-store.js';
import { StoreProvider } from './store/store-context.js';
import { AreaProvider } from './store/area-context.js';
import { createLogsStore } from './store/logs-store.js';
import { RulesStoreProvider } from './store/rules-context.js';
import { createRulesStore } from './store/rules-store.js';
import { InstallStoreProvider } from './store/install-context.js';
import { createInstallStore } from './store/install-store.js';
import './styles/tokens.css';
import './styles/base.css';
import './styles/controls.css';
import './styles/layout.css';
import './styles/dialog.css';
import './styles/server.css';
import './styles/sign-in.css';
import './styles/tools.css';
import './styles/result.css';
import './styles/config.css';
import './styles/shell.css';
import './styles/chat.css';
import './styles/chat-scale.css';
import './styles/markdown.css';
import './styles/consent.css';
import './styles/settings.css';
import './styles/features.css';
import './styles/consent-dialogs.css';
import './styles/apps.css';
import './styles/bundles.css';
import './styles/browse.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// One store for the window's lifetime, created outside React so StrictMode's
// double effects cannot subscribe it to the host twice.
const { store } = createAppStore(getHost(), getHostConnection());
const area = { host: getHost(), logs: createLogsStore(getHost()).store };
const chat = createChatStore(getHost(), getHostConnection());
const consent = createConsentStore(getHost(), getHostConnection());
const rules = createRulesStore(getHost(), getHostConnection());
const installs = createInstallStore(getHost(), getHostConnection());

createRoot(root).render(
  <StrictMode>
    <StoreProvider store={store}>
      <AreaProvider value={area}>
        <ChatStoreProvider store={chat.store}>
          <ConsentStoreProvider store={consent.store}>
            <RulesStoreProvider store={rules.store}>
              <InstallStoreProvider store={installs.store}>
                <App />
              </InstallStoreProvider>
            </RulesStoreProvider>
          </ConsentStoreProvider>
        </ChatStoreProvider>
      </AreaProvider>
    </StoreProvider>
  </StrictMode>,
);
