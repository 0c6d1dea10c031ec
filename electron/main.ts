import { BrowserWindow, Menu, app, dialog, ipcMain, nativeTheme, session, shell } from 'electron';
import type {
  Event as ElectronEvent,
  IpcMainInvokeEvent,
  MenuItemConstructorOptions,
  WebContents,
} from 'electron';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { registerAppScheme, serveAppSandbox } from './electron-apps.js';
import { bindHostToIpc, forwardHostEvents } from './electron-ipc.js';
import { ElectronPlatform, isWebUrl } from './electron-platform.js';
import { describeError } from './host/errors.js';
import { createHost } from './host/host.js';
import type { Host } from './host/host-types.js';
import { linkFromArgv } from './host/install/install-links.js';

/*
 * The Electron shell: one window, its security settings, the menu, and the
 * host core's lifetime. Everything the app does lives in electron/host/.
 */

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PRELOAD = path.join(HERE, 'preload.cjs');
const INDEX_HTML = path.join(HERE, '..', 'renderer', 'index.html');
/** Also the name of the data folder, shared with the headless shell (electron/host/node-platform.ts). */
const PRODUCT_NAME = 'MCP Host';
/** Window background while the renderer paints: --bg-app in renderer/src/styles/tokens.css. */
const BACKGROUND = { dark: '#15171b', light: '#f6f7f9' };
/** Upper bound on waiting for the host to end its servers at quit. */
const DISPOSE_TIMEOUT_MS = 10_000;

let host: Host | undefined;
let mainWindow: BrowserWindow | null = null;
/** Set once the first window is on its way, so macOS 'activate' cannot open a second. */
let launched = false;
let exitCode = 0;
let quitting = false;
const cleanups: (() => void)[] = [];
/** `mcp-host://install?…` links that arrived before the host was ready. */
const earlyLinks: string[] = [];

// Must happen before `ready` (top-level code of an ESM entry runs before it).
app.enableSandbox();
registerAppScheme();
// One data folder whichever way the app is launched (`electron dist/electron/main.js`
// would otherwise use "Electron"); it is the folder the headless shell uses too.
// Tests and side-by-side runs get their own profile (and single-instance lock).
const userDataOverride = process.env.MCP_HOST_USER_DATA;
app.setPath(
  'userData',
  userDataOverride ? path.resolve(userDataOverride) : path.join(app.getPath('appData'), PRODUCT_NAME),
);

if (app.requestSingleInstanceLock()) {
  registerInstallLinks();
  app.on('second-instance', (_event, argv) => {
    // Windows and Linux start a second instance with the link as an argument.
    const link = linkFromArgv(argv);
    if (link !== undefined) receiveInstallLink(link);
    if (!mainWindow || mainWindow.isDestroyed()) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });
  app.on('web-contents-created', (_event, contents) => {
    harden(contents);
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (launched && !mainWindow) openMainWindow().catch(fatal);
  });
  app.on('before-quit', onBeforeQuit);
  start().catch(fatal);
} else {
  // Another instance owns the profile; it focuses its window on 'second-instance'.
  app.quit();
}

async function start(): Promise<void> {
  await app.whenReady();
  denyAllPermissions();
  Menu.setApplicationMenu(buildMenu());

  const platform = await ElectronPlatform.create(() => mainWindow);
  const started = createHost({
    platform,
    shell: 'electron',
    // The version baked in at build time: app.getVersion() reports Electron's
    // own version when the entry file is launched directly (as the e2e does).
    appVersion: __APP_VERSION__,
    configPath: configPathFromCommandLine() ?? process.env.MCP_HOST_CONFIG,
    sqliteNativeBinding: electronSqliteBinding(),
  });
  host = started;
  cleanups.push(bindHostToIpc(started, ipcMain, isTrustedSender));
  cleanups.push(forwardHostEvents(started, trustedWindow));
  cleanups.push(serveAppSandbox(started, session.defaultSession));
  await started.start();
  launched = true;
  await openMainWindow();
  // A link the app was started with, and any that came while it started.
  const initial = linkFromArgv(process.argv.slice(1));
  if (initial !== undefined) earlyLinks.push(initial);
  for (const link of earlyLinks.splice(0)) receiveInstallLink(link);
}

/**
 * The app's protocol, `mcp-host://install?…` (registered with the OS by the
 * packaged app; a development run registers only with
 * MCP_HOST_REGISTER_PROTOCOL=1, so tests never take over the system's
 * handler). macOS delivers links as 'open-url', the others as arguments.
 */
function registerInstallLinks(): void {
  app.on('open-url', (event, url) => {
    event.preventDefault();
    receiveInstallLink(url);
  });
  if (app.isPackaged) app.setAsDefaultProtocolClient('mcp-host');
  else if (process.env.MCP_HOST_REGISTER_PROTOCOL === '1' && process.argv[1] !== undefined) {
    app.setAsDefaultProtocolClient('mcp-host', process.execPath, [path.resolve(process.argv[1])]);
  }
}

/**
 * Hands a link to the host core, which checks it and shows it in the window
 * for the person to confirm; nothing is installed here. A bad link is one
 * line in a native error box.
 */
function receiveInstallLink(link: string): void {
  if (!host || !launched) {
    earlyLinks.push(link);
    return;
  }
  host.installs.receiveLink(link).catch((error: unknown) => {
    dialog.showErrorBox('This install link cannot be used', describeError(error));
  });
  if (mainWindow && !mainWindow.isDestroyed()) {
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  }
}

/**
 * In a source checkout node_modules holds better-sqlite3 built for Node;
 * postinstall puts an Electron build beside it (build/native/electron). A
 * packaged app's node_modules is rebuilt for Electron, so it needs none.
 */
function electronSqliteBinding(): string | undefined {
  if (app.isPackaged) return undefined;
  const file = path.join(app.getAppPath(), 'build', 'native', 'electron', 'better_sqlite3.node');
  return existsSync(file) ? file : undefined;
}

async function openMainWindow(): Promise<void> {
  const window = new BrowserWindow({
    width: 1200,
    height: 800,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: PRODUCT_NAME,
    backgroundColor: nativeTheme.shouldUseDarkColors ? BACKGROUND.dark : BACKGROUND.light,
    webPreferences: {
      preload: PRELOAD,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      webviewTag: false,
      spellcheck: false,
    },
  });
  mainWindow = window;
  window.once('ready-to-show', () => {
    window.show();
  });
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = null;
  });
  // In Electron the host is this process: if it dies, the window goes with it
  // and the next start opens a fresh one. A renderer that dies on its own is
  // reloaded, and catches up from the host (which kept running).
  window.webContents.on('render-process-gone', (_event, details) => {
    if (details.reason === 'clean-exit' || window.isDestroyed()) return;
    void window.loadFile(INDEX_HTML);
  });
  await window.loadFile(INDEX_HTML);
}

/**
 * Who may call the host: only the main frame of our own window, and only
 * while it shows our own index.html. A subframe, another window, or the page
 * after it somehow navigated elsewhere gets 'denied'.
 */
function isTrustedSender(event: IpcMainInvokeEvent): boolean {
  const window = mainWindow;
  if (!window || window.isDestroyed()) return false;
  if (BrowserWindow.fromWebContents(event.sender) !== window) return false;
  const frame = event.senderFrame;
  const top = window.webContents.mainFrame;
  return (
    frame !== null &&
    frame.parent === null &&
    frame.processId === top.processId &&
    frame.routingId === top.routingId &&
    isOurPage(frame.url)
  );
}

/** The window host events go to: ours, and only while it shows our page. */
function trustedWindow(): BrowserWindow | null {
  const window = mainWindow;
  if (!window || window.isDestroyed() || window.webContents.isDestroyed()) return null;
  return isOurPage(window.webContents.mainFrame.url) ? window : null;
}

/** Whether a URL is our renderer's index.html (query and fragment ignored). */
function isOurPage(url: string): boolean {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'file:') return false;
    const samePath = (a: string, b: string) =>
      process.platform === 'win32' || process.platform === 'darwin'
        ? a.toLowerCase() === b.toLowerCase()
        : a === b;
    return samePath(path.resolve(fileURLToPath(parsed)), path.resolve(INDEX_HTML));
  } catch {
    return false;
  }
}

/**
 * Applied to every web contents: no new windows, no navigation away, no
 * <webview>, and WebRTC never sends UDP outside a proxy (MCP Apps run in
 * frames of this window; their documents also lose the WebRTC constructors,
 * electron/host/apps/sandbox-proxy.ts, and the renderer itself uses none).
 */
function harden(contents: WebContents): void {
  contents.setWebRTCIPHandlingPolicy('disable_non_proxied_udp');
  contents.setWindowOpenHandler(({ url }) => {
    if (isWebUrl(url)) openInBrowser(url);
    return { action: 'deny' };
  });
  contents.on('will-navigate', (event) => {
    if (isOurPage(event.url)) return;
    event.preventDefault();
    if (isWebUrl(event.url)) openInBrowser(event.url);
  });
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
  });
}

function openInBrowser(url: string): void {
  // Fire and forget: the page that asked has no use for the outcome.
  shell.openExternal(url).catch((error: unknown) => {
    console.error(`Could not open ${url}: ${describeError(error)}`);
  });
}

/**
 * The renderer needs no camera, microphone, notifications, geolocation or
 * anything else. MCP Apps run in frames of the same window and session, so
 * these handlers answer their requests too (WebRTC has no permission to
 * refuse: see harden()).
 */
function denyAllPermissions(): void {
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => {
    callback(false);
  });
  session.defaultSession.setPermissionCheckHandler(() => false);
}

function buildMenu() {
  const dev = !app.isPackaged;
  const template: MenuItemConstructorOptions[] = [
    ...(process.platform === 'darwin' ? [{ role: 'appMenu' } as const] : []),
    { role: 'fileMenu' },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        ...(dev
          ? ([{ role: 'reload' }, { role: 'toggleDevTools' }, { type: 'separator' }] as const)
          : ([] as const)),
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [
        {
          label: 'About the Model Context Protocol',
          click: () => {
            openInBrowser('https://modelcontextprotocol.io');
          },
        },
      ],
    },
  ];
  return Menu.buildFromTemplate(template);
}

/** `--config <file>` or `--config=<file>` (as passed by `npm start -- --config x.json`). */
function configPathFromCommandLine(): string | undefined {
  const args = process.argv.slice(1);
  for (const [index, arg] of args.entries()) {
    const value =
      arg === '--config' ? args[index + 1] : arg.startsWith('--config=') ? arg.slice(9) : undefined;
    if (value) return path.resolve(value);
  }
  return undefined;
}

/** Holds the quit until the host has ended every server process, then exits. */
function onBeforeQuit(event: ElectronEvent): void {
  event.preventDefault();
  if (quitting) return;
  quitting = true;
  for (const cleanup of cleanups.splice(0)) cleanup();
  const disposed = host ? host.dispose() : Promise.resolve();
  const timeout = new Promise<void>((resolve) => setTimeout(resolve, DISPOSE_TIMEOUT_MS));
  Promise.race([disposed, timeout])
    .catch((error: unknown) => {
      console.error(`Shutting down the host failed: ${describeError(error)}`);
    })
    .finally(() => {
      app.exit(exitCode);
    });
}

/** A startup failure: one line for the person, no stack trace, then quit (which disposes the host). */
function fatal(error: unknown): void {
  console.error(error);
  dialog.showErrorBox('MCP Host could not start', describeError(error));
  exitCode = 1;
  app.quit();
}
