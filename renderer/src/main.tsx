import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.js';
import { getHost, getHostConnection } from './bridge/get-host.js';
import { createAppStore } from './store/app-store.js';
import { StoreProvider } from './store/store-context.js';
import './styles/tokens.css';
import './styles/base.css';
import './styles/controls.css';
import './styles/layout.css';
import './styles/dialog.css';
import './styles/server.css';
import './styles/tools.css';
import './styles/result.css';
import './styles/tabs.css';
import './styles/features.css';
import './styles/consent-dialogs.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// One store for the window's lifetime, created outside React so StrictMode's
// double effects cannot subscribe it to the host twice.
const { store } = createAppStore(getHost(), getHostConnection());

createRoot(root).render(
  <StrictMode>
    <StoreProvider store={store}>
      <App />
    </StoreProvider>
  </StrictMode>,
);
