import { test, expect, _electron } from '@playwright/test';
import type { ElectronApplication, Page } from '@playwright/test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { addEverythingAndCallEcho, everythingEntry } from './flows/server-everything.js';
import { electronBinaryStatus } from '../scripts/electron-binary.mjs';

/*
 * The same vertical slice as the headless spec, driven through the real
 * Electron shell: preload, IPC sender check, native consent dialog, and the
 * window's security preferences. Skipped (with the reason printed) where the
 * Electron binary is not installed.
 */

const MAIN = fileURLToPath(new URL('../dist/electron/main.js', import.meta.url));

// Checked without requiring 'electron' (as Playwright does), which would start a download.
const missing = electronBinaryStatus().missing ?? null;
if (missing !== null) console.log(`Skipping Electron e2e: ${missing}`);
test.skip(missing !== null, missing ?? '');

let app: ElectronApplication | undefined;
let scratch: string | undefined;

test.afterEach(async () => {
  await app?.close();
  app = undefined;
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
});

test('adds server-everything and calls echo', async () => {
  const page = await launch();
  await answerLaunchDialogs('Allow and start');

  await addEverythingAndCallEcho(page);

  // Adding a stdio server asked the person natively, showing exactly what will run.
  const dialogs = await shownDialogs();
  expect(dialogs).toHaveLength(1);
  expect(dialogs[0]?.title).toBe('Allow this server to run?');
  expect(dialogs[0]?.message).toContain('everything');
  expect(dialogs[0]?.detail).toContain(everythingEntry);
  expect(dialogs[0]?.detail).toContain('stdio');
});

test('the window is sandboxed and exposes only window.host', async () => {
  const page = await launch();
  const preferences = await requireApp().evaluate(({ BrowserWindow }) => {
    // Not in the typings, but present at runtime (Electron's own tests use it):
    // the preferences the renderer was really created with.
    const contents = BrowserWindow.getAllWindows()[0]?.webContents as unknown as
      { getLastWebPreferences(): Record<string, unknown> | null } | undefined;
    const p = contents?.getLastWebPreferences();
    return {
      contextIsolation: p?.contextIsolation,
      sandbox: p?.sandbox,
      nodeIntegration: p?.nodeIntegration,
    };
  });
  expect(preferences).toEqual({ contextIsolation: true, sandbox: true, nodeIntegration: false });

  const exposed = await page.evaluate(() => {
    const world = globalThis as Record<string, unknown>;
    const host = world.host as Record<string, unknown> | undefined;
    return {
      ipcRenderer: typeof world.ipcRenderer,
      require: typeof world.require,
      process: typeof world.process,
      listServers: typeof host?.listServers,
    };
  });
  expect(exposed).toEqual({
    ipcRenderer: 'undefined',
    require: 'undefined',
    process: 'undefined',
    listServers: 'function',
  });

  // The page's own requests pass the sender check and reach the host core.
  const info = await page.evaluate(async () => {
    const host = (globalThis as Record<string, unknown>).host as {
      getAppInfo(params: object): Promise<unknown>;
    };
    return host.getAppInfo({});
  });
  expect(info).toMatchObject({ ok: true, value: { name: 'MCP Host', shell: 'electron' } });
});

/** Launches the built app with a fresh, empty configuration and profile; returns its window. */
async function launch(): Promise<Page> {
  scratch = mkdtempSync(path.join(tmpdir(), 'mcp-host-electron-e2e-'));
  const configPath = path.join(scratch, 'mcp-servers.json');
  writeFileSync(configPath, JSON.stringify({ mcpServers: {} }));
  app = await _electron.launch({
    args: [MAIN],
    env: {
      ...definedEnv(),
      MCP_HOST_CONFIG: configPath,
      MCP_HOST_USER_DATA: path.join(scratch, 'user-data'),
      ELECTRON_DISABLE_SECURITY_WARNINGS: 'true',
    },
  });
  return app.firstWindow();
}

function requireApp(): ElectronApplication {
  if (!app) throw new Error('The app is not running');
  return app;
}

interface ShownDialog {
  title?: string;
  message: string;
  detail?: string;
}

/**
 * Playwright cannot click a native message box, so the main process's
 * `dialog.showMessageBox` is replaced by one that records what it was asked
 * to show and presses the button with the given label.
 */
async function answerLaunchDialogs(button: string): Promise<void> {
  await requireApp().evaluate(({ dialog }, label) => {
    const shown: unknown[] = [];
    (globalThis as Record<string, unknown>).__e2eShownDialogs = shown;
    const answer = (...args: unknown[]) => {
      const options = args[args.length - 1] as {
        title?: string;
        message: string;
        detail?: string;
        buttons?: string[];
      };
      shown.push({ title: options.title, message: options.message, detail: options.detail });
      return Promise.resolve({ response: options.buttons?.indexOf(label) ?? 0, checkboxChecked: false });
    };
    dialog.showMessageBox = answer;
  }, button);
}

async function shownDialogs(): Promise<ShownDialog[]> {
  return requireApp().evaluate(
    () => (globalThis as Record<string, unknown>).__e2eShownDialogs as ShownDialog[],
  );
}

function definedEnv(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}
