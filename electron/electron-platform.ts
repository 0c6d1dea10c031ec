import { Notification, app, dialog, safeStorage, shell } from 'electron';
import type { BrowserWindow, MessageBoxOptions, OpenDialogOptions } from 'electron';
import { HostError } from './host/errors.js';
import type {
  AttentionNote,
  LaunchRequest,
  LocalLaunchRequest,
  Platform,
  RemoteLaunchRequest,
  SecretStorage,
} from './host/platform.js';

/** How long startup waits for the OS keyring to say whether it can encrypt. */
const KEYRING_TIMEOUT_MS = 10_000;

/**
 * The host core's OS services inside Electron: the user-data folder, secrets
 * through `safeStorage` (Keychain, DPAPI, libsecret/kwallet), the system
 * browser, and native dialogs parented to the main window.
 */
export class ElectronPlatform implements Platform {
  readonly kind = 'electron';
  /** Shown notifications, held so they are not collected before they are clicked. */
  private readonly notifications = new Set<Notification>();

  private constructor(
    private readonly getWindow: () => BrowserWindow | null,
    private readonly encryptionAvailable: boolean,
    private readonly encryptionIsReal: boolean,
  ) {}

  /**
   * Creates the platform once the app is ready (`safeStorage` answers only
   * then). `getWindow` returns the window native dialogs belong to, if any.
   */
  static async create(getWindow: () => BrowserWindow | null): Promise<ElectronPlatform> {
    // A keyring that never answers (seen with broken D-Bus setups) must not
    // keep the app from starting: after a while, treat secrets as unavailable.
    const available = await Promise.race([
      safeStorage.isAsyncEncryptionAvailable(),
      new Promise<boolean>((resolve) => setTimeout(resolve, KEYRING_TIMEOUT_MS, false)),
    ]);
    // On Linux without a keyring Electron falls back to a hard-coded key: that
    // works, but it is obfuscation, not encryption, and the user should be told.
    const real =
      available &&
      !(process.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text');
    return new ElectronPlatform(getWindow, available, real);
  }

  userDataDir(): string {
    return app.getPath('userData');
  }

  canEncrypt(): boolean {
    return this.encryptionIsReal;
  }

  secretStorage(): SecretStorage {
    return this.encryptionIsReal ? 'encrypted' : 'obfuscated-file';
  }

  /** safeStorage keeps nothing outside the settings file. */
  forgetSecret(): Promise<void> {
    return Promise.resolve();
  }

  async encryptSecret(plain: string): Promise<string> {
    this.requireEncryption();
    const encrypted = await safeStorage.encryptStringAsync(plain);
    return encrypted.toString('base64');
  }

  async decryptSecret(stored: string): Promise<string> {
    this.requireEncryption();
    const { result } = await safeStorage.decryptStringAsync(Buffer.from(stored, 'base64'));
    return result;
  }

  async openExternal(url: string): Promise<void> {
    if (!isWebUrl(url))
      throw new HostError('denied', 'Only http and https links can be opened in the browser.');
    await shell.openExternal(url);
  }

  async pickFolder(options?: { title?: string }): Promise<string | null> {
    const dialogOptions: OpenDialogOptions = {
      title: options?.title ?? 'Choose a folder',
      properties: ['openDirectory', 'createDirectory'],
    };
    const window = this.liveWindow();
    const picked = window
      ? await dialog.showOpenDialog(window, dialogOptions)
      : await dialog.showOpenDialog(dialogOptions);
    return picked.canceled ? null : (picked.filePaths[0] ?? null);
  }

  async pickFile(options: { title: string; extensions?: readonly string[] }): Promise<string | null> {
    const dialogOptions: OpenDialogOptions = {
      title: options.title,
      properties: ['openFile'],
      ...(options.extensions
        ? { filters: [{ name: options.title, extensions: [...options.extensions] }] }
        : {}),
    };
    const window = this.liveWindow();
    const picked = window
      ? await dialog.showOpenDialog(window, dialogOptions)
      : await dialog.showOpenDialog(dialogOptions);
    return picked.canceled ? null : (picked.filePaths[0] ?? null);
  }

  async confirmLaunch(request: LaunchRequest): Promise<boolean> {
    const remote = request.kind === 'remote';
    return this.allowOrCancel({
      title: remote ? 'Allow this server to connect?' : 'Allow this server to run?',
      message: remote
        ? `Allow the server “${visible(request.name)}” to connect to ${visible(request.destination)}?`
        : `Allow the server “${visible(request.name)}” to run this program on your computer?`,
      detail: describeRequest(request),
      allow: remote ? 'Allow and connect' : 'Allow and start',
    });
  }

  /** One dialog for several servers: each is listed with what it runs or where it connects. */
  async confirmLaunches(requests: readonly LaunchRequest[]): Promise<boolean> {
    const [only] = requests;
    if (requests.length === 0) return true;
    if (only !== undefined && requests.length === 1) return this.confirmLaunch(only);
    const remote = requests.filter((request) => request.kind === 'remote').length;
    const local = requests.length - remote;
    const what = [
      local > 0 ? `run ${plural(local, 'program')} on your computer` : '',
      remote > 0 ? `connect to ${plural(remote, 'remote address', 'remote addresses')}` : '',
    ]
      .filter(Boolean)
      .join(' and ');
    return this.allowOrCancel({
      title: 'Allow these servers?',
      message: `Allow these ${String(requests.length)} servers to ${what}?`,
      detail: requests
        .map((request) => `“${visible(request.name)}”\n${describeRequest(request)}`)
        .join('\n\n'),
      allow: `Allow all ${String(requests.length)}`,
    });
  }

  /** A warning with an allow button and Cancel (the default, also on Esc); true when allowed. */
  private async allowOrCancel(text: {
    title: string;
    message: string;
    detail: string;
    allow: string;
  }): Promise<boolean> {
    const options: MessageBoxOptions = {
      type: 'warning',
      title: text.title,
      message: text.message,
      detail: text.detail,
      buttons: [text.allow, 'Cancel'],
      defaultId: 1,
      cancelId: 1,
      noLink: true,
    };
    const window = this.liveWindow();
    const { response } = window
      ? await dialog.showMessageBox(window, options)
      : await dialog.showMessageBox(options);
    return response === 0;
  }

  /**
   * A system notification when the window is not in front (minimised, in
   * the background, or closed on macOS); clicking it brings the window back.
   * The dialog itself is in the window: the notification only says one waits.
   */
  requestAttention(note: AttentionNote): void {
    const window = this.liveWindow();
    if (window?.isFocused() === true) return;
    if (!Notification.isSupported()) {
      window?.flashFrame(true);
      return;
    }
    const notification = new Notification({ title: note.title, body: note.body });
    this.notifications.add(notification);
    // Unanswered ones pile up in the OS's notification centre; keep only the last few referenced.
    if (this.notifications.size > 20) {
      const [oldest] = this.notifications;
      if (oldest) this.notifications.delete(oldest);
    }
    const forget = (): void => {
      this.notifications.delete(notification);
    };
    notification.on('click', () => {
      forget();
      const target = this.liveWindow();
      if (!target) return;
      if (target.isMinimized()) target.restore();
      target.show();
      target.focus();
    });
    notification.on('close', forget);
    notification.on('failed', forget);
    notification.show();
  }

  private liveWindow(): BrowserWindow | null {
    const window = this.getWindow();
    return window && !window.isDestroyed() ? window : null;
  }

  private requireEncryption(): void {
    if (!this.encryptionAvailable) {
      throw new HostError('internal', 'Secret storage is not available on this system.');
    }
  }
}

/** True for absolute http: and https: URLs, the only kind we hand to the OS. */
export function isWebUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * The consent dialog's detail: the exact command line, the folder, and each
 * env variable with its value as stored (a secret is stored as a reference).
 */
function describeLaunch(request: LocalLaunchRequest): string {
  const commandLine = [request.command, ...request.args].map(quoteArg).join(' ');
  const env =
    request.env.length > 0
      ? request.env.map((e) => `\n  ${visible(e.name)}=${quoteArg(e.value)}`).join('')
      : ' none';
  return [
    `Command: ${commandLine}`,
    `Working directory: ${request.cwd ? quoteArg(request.cwd) : '(default)'}`,
    `Environment variables:${env}`,
  ].join('\n');
}

/** What a launch confirmation shows of one server. */
function describeRequest(request: LaunchRequest): string {
  return request.kind === 'remote' ? describeRemote(request) : describeLaunch(request);
}

/** For a remote entry: where requests go, the headers sent, and the host variables they carry. */
function describeRemote(request: RemoteLaunchRequest): string {
  const list = (names: readonly string[]) => (names.length > 0 ? names.map(quoteArg).join(', ') : 'none');
  return [
    `Address: ${quoteArg(request.url)}`,
    `Headers sent with every request:${
      request.headers.length > 0
        ? request.headers.map((h) => `\n  ${visible(h.name)}: ${quoteArg(h.value)}`).join('')
        : ' none'
    }`,
    `Values of these variables of your environment are sent to ${visible(request.destination)}: ${list(request.sentVariables)}`,
  ].join('\n');
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${String(count)} ${count === 1 ? one : many}`;
}

/** Control and invisible formatting characters spelled out, so a name reads as what it is. */
function visible(text: string): string {
  return text.replace(
    /[\p{Cc}\p{Cf}]/gu,
    (char) => `\\u{${(char.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}}`,
  );
}

/**
 * Shows an argument so that what the person reads is what will run: quoted
 * when it has spaces or quotes (or is empty), with control and invisible
 * formatting characters (e.g. right-to-left overrides) spelled out.
 */
function quoteArg(arg: string): string {
  const shown = visible(arg);
  const needsQuotes = arg === '' || shown !== arg || /[\s"']/u.test(arg);
  return needsQuotes ? `"${shown.replace(/"/g, '\\"')}"` : shown;
}
