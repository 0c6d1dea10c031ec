import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { LaunchRequest, Platform } from './platform.js';
import { openUrl } from './open-url.js';

/**
 * The Platform outside Electron: the headless shell, the CLI and the tests.
 * There is no OS keychain here, so secrets are only encoded, and canEncrypt()
 * says so; the UI warns before storing any.
 */
export class NodePlatform implements Platform {
  readonly kind = 'node';

  constructor(
    private readonly dataDir: string = defaultUserDataDir(),
    private readonly launchPolicy: (request: LaunchRequest) => Promise<boolean> = () => Promise.resolve(true),
  ) {}

  userDataDir(): string {
    mkdirSync(this.dataDir, { recursive: true, mode: 0o700 });
    return this.dataDir;
  }

  canEncrypt(): boolean {
    return false;
  }

  encryptSecret(plain: string): Promise<string> {
    return Promise.resolve(Buffer.from(plain, 'utf8').toString('base64'));
  }

  decryptSecret(stored: string): Promise<string> {
    return Promise.resolve(Buffer.from(stored, 'base64').toString('utf8'));
  }

  openExternal(url: string): Promise<void> {
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
}

/** The per-user data folder, the same one Electron's app.getPath('userData') uses for "MCP Host". */
export function defaultUserDataDir(appName = 'MCP Host'): string {
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', appName);
  if (process.platform === 'win32') {
    return join(process.env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), appName);
  }
  return join(process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), appName);
}
