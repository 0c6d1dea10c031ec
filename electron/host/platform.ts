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
  /** Whether secrets are really encrypted (false: stored with a warning). */
  canEncrypt(): boolean;
  /** Encrypts a secret for storage at rest; the output is base64 text. */
  encryptSecret(plain: string): Promise<string>;
  decryptSecret(stored: string): Promise<string>;
  /** Opens an http(s) URL in the system browser. */
  openExternal(url: string): Promise<void>;
  /** Lets the user pick a folder; null when cancelled or unavailable. */
  pickFolder(options?: { title?: string }): Promise<string | null>;
  /**
   * Asks the person, outside the renderer where possible, whether a newly
   * added local server may be started. The renderer cannot answer this.
   */
  confirmLaunch(request: LaunchRequest): Promise<boolean>;
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

export interface LaunchRequest {
  name: string;
  command: string;
  args: readonly string[];
  cwd?: string | undefined;
  /** Names only: values may be secrets. */
  envNames: readonly string[];
}
