/**
 * The few OS services the host core needs, injected so that the core runs
 * unchanged inside Electron and in plain Node (the headless shell, the CLI
 * and the tests). Implementations: electron/electron-platform.ts and
 * ./node-platform.ts.
 */
export interface Platform {
  readonly kind: 'electron' | 'node';
  /** Folder for configuration and data; created on first use. */
  userDataDir(): string;
  /** Whether secrets are really protected (false: stored obfuscated, with a warning). */
  canEncrypt(): boolean;
  /** Where a secret stored now goes; the UI says it in these words. */
  secretStorage(): SecretStorage;
  /** Stores a secret at rest; returns the text to keep in the settings file (never the secret itself unless obfuscated). */
  encryptSecret(plain: string): Promise<string>;
  decryptSecret(stored: string): Promise<string>;
  /** Removes what encryptSecret stored outside the file (a keychain entry); nothing for file-kept secrets. */
  forgetSecret(stored: string): Promise<void>;
  /** Opens an http(s) URL in the system browser. */
  openExternal(url: string): Promise<void>;
  /** Lets the user pick a folder; null when cancelled or unavailable. */
  pickFolder(options?: { title?: string }): Promise<string | null>;
  /**
   * Lets the user pick a file (a bundle to install); null when cancelled.
   * Absent where there is no native dialog (the page uploads the file instead).
   */
  pickFile?(options: { title: string; extensions?: readonly string[] }): Promise<string | null>;
  /**
   * Asks the person, outside the renderer where possible, whether a new or
   * changed server may be started: a local command, or a remote address that
   * will receive headers (and the host's variables they name). The renderer
   * cannot answer this.
   */
  confirmLaunch(request: LaunchRequest): Promise<boolean>;
  /**
   * The same for several servers at once (an import, a saved configuration
   * file): one question that shows each of them, answered for all, rather
   * than one dialog per server.
   */
  confirmLaunches(requests: readonly LaunchRequest[]): Promise<boolean>;
  /**
   * A decision is waiting for the person (a consent request). When the app
   * is not in front, draw their attention: Electron shows a system
   * notification. The headless shell has no window of its own; there the
   * page changes its title instead, so this does nothing.
   */
  requestAttention(note: AttentionNote): void;
}

/** What a system notification says; plain text, already made safe to show. */
export interface AttentionNote {
  title: string;
  body: string;
}

/**
 * Where secrets are kept: the OS keychain (headless shell and CLI, through a
 * keychain library), encrypted with a key the OS keeps (Electron
 * safeStorage), or only obfuscated in a file readable by the user alone.
 */
export type SecretStorage = 'os-keychain' | 'encrypted' | 'obfuscated-file';

/** What the launch confirmation shows: a local command or a remote destination. */
export type LaunchRequest = LocalLaunchRequest | RemoteLaunchRequest;

export interface LocalLaunchRequest {
  kind: 'stdio';
  name: string;
  command: string;
  args: readonly string[];
  cwd?: string | undefined;
  envNames: readonly string[];
  /**
   * Each variable with its value as the entry holds it: what an install link,
   * registry entry or bundle set is read, not only named. A secret the person
   * typed is held as `${secret:NAME}` (a bundle's as `${user_config.KEY}`) and
   * shows so.
   */
  env: readonly { name: string; value: string }[];
}

export interface RemoteLaunchRequest {
  kind: 'remote';
  name: string;
  /** The address as written, `${env:…}` references unexpanded. */
  url: string;
  /** The host part of the URL: where everything below is sent. */
  destination: string;
  /** Names of the headers sent with every request. */
  headerNames: readonly string[];
  /** Each header with its value as the entry holds it (a secret the app stores shows as its `${secret:…}`). */
  headers: readonly { name: string; value: string }[];
  /** Variables of the host's environment that `${env:NAME}` sends there, in the URL or a header. */
  sentVariables: readonly string[];
}
