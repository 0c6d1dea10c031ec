import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { AttentionNote, LaunchRequest, Platform, SecretStorage } from './platform.js';
import { HostError, describeError } from './errors.js';
import { systemKeychain } from './secrets/keychain.js';
import type { Keychain } from './secrets/keychain.js';
import { openUrl } from './open-url.js';

/** Prefix of a stored secret that lives in the OS keychain; the rest is the keychain account. */
const KEYCHAIN_PREFIX = 'keychain:';

export interface NodePlatformOptions {
  /** Where secrets go: default the system keychain when there is one; null for none (tests). */
  keychain?: Keychain | null;
}

/**
 * The Platform outside Electron: the headless shell, the CLI and the tests.
 * Secrets go to the OS keychain where one exists (macOS Keychain, Windows
 * Credential Manager, a Secret Service on Linux); where none does they are
 * only obfuscated (base64) in the settings file, which only the user can
 * read (0600), and secretStorage() says so for the UI to repeat.
 */
export class NodePlatform implements Platform {
  readonly kind = 'node';
  /** Looked for on first use (loading the native module and asking D-Bus is not free at startup). */
  private found: { keychain: Keychain | undefined } | undefined;

  constructor(
    private readonly dataDir: string = defaultUserDataDir(),
    private readonly launchPolicy: (request: LaunchRequest) => Promise<boolean> = () => Promise.resolve(true),
    private readonly options: NodePlatformOptions = {},
  ) {}

  private get keychain(): Keychain | undefined {
    this.found ??= {
      keychain: this.options.keychain === undefined ? systemKeychain() : (this.options.keychain ?? undefined),
    };
    return this.found.keychain;
  }

  userDataDir(): string {
    mkdirSync(this.dataDir, { recursive: true, mode: 0o700 });
    return this.dataDir;
  }

  canEncrypt(): boolean {
    return this.keychain !== undefined;
  }

  secretStorage(): SecretStorage {
    return this.keychain ? 'os-keychain' : 'obfuscated-file';
  }

  async encryptSecret(plain: string): Promise<string> {
    if (!this.keychain) return Buffer.from(plain, 'utf8').toString('base64');
    const account = `secret-${randomUUID()}`;
    try {
      await this.keychain.set(account, plain);
    } catch (error) {
      // Never a silent downgrade to obfuscation: the person is told, and can retry or unlock.
      throw new HostError('internal', `The system keychain did not store the key: ${describeError(error)}`);
    }
    return `${KEYCHAIN_PREFIX}${account}`;
  }

  async decryptSecret(stored: string): Promise<string> {
    if (!stored.startsWith(KEYCHAIN_PREFIX)) return Buffer.from(stored, 'base64').toString('utf8');
    if (!this.keychain)
      throw new HostError('internal', 'The key is in a system keychain that is not available now.');
    const secret = await this.keychain.get(stored.slice(KEYCHAIN_PREFIX.length));
    if (secret === null)
      throw new HostError('internal', 'The key is no longer in the system keychain; enter it again.');
    return secret;
  }

  async forgetSecret(stored: string): Promise<void> {
    if (stored.startsWith(KEYCHAIN_PREFIX) && this.keychain) {
      await this.keychain.delete(stored.slice(KEYCHAIN_PREFIX.length)).catch(() => undefined);
    }
  }

  openExternal(url: string): Promise<void> {
    if (process.env.MCP_HOST_NO_BROWSER === '1') {
      return Promise.reject(new Error('Opening a browser is turned off (MCP_HOST_NO_BROWSER=1)'));
    }
    try {
      return openUrl(url);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  pickFolder(): Promise<string | null> {
    // No native dialog without Electron; the UI falls back to typing a path.
    return Promise.resolve(null);
  }

  /**
   * In the headless shell the person at the token-guarded page is the only
   * one who can add a server, so the default policy allows it; tests and the
   * CLI may inject a stricter one.
   */
  confirmLaunch(request: LaunchRequest): Promise<boolean> {
    return this.launchPolicy(request);
  }

  /** Allowed when the policy allows each of them. */
  async confirmLaunches(requests: readonly LaunchRequest[]): Promise<boolean> {
    for (const request of requests) if (!(await this.launchPolicy(request))) return false;
    return true;
  }

  /** The page draws attention itself (its title); there is no OS window to flash here. */
  requestAttention(_note: AttentionNote): void {
    // Nothing to do outside Electron.
  }
}

/** The per-user data folder, the same one Electron's app.getPath('userData') uses for "MCP Host". */
export function defaultUserDataDir(appName = 'MCP Host'): string {
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', appName);
  if (process.platform === 'win32') {
    return join(process.env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), appName);
  }
  return join(process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), appName);
}
