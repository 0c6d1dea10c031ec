import { createRequire } from 'node:module';

/**
 * The OS keychain as the host core uses it: macOS Keychain, Windows
 * Credential Manager, or a Secret Service on Linux (GNOME Keyring, KWallet,
 * KeePassXC…), through @napi-rs/keyring (prebuilt binaries from the npm
 * registry). Secrets are stored under the service "MCP Host", one account
 * each.
 */
export interface Keychain {
  set(account: string, secret: string): Promise<void>;
  get(account: string): Promise<string | null>;
  delete(account: string): Promise<void>;
}

export const KEYCHAIN_SERVICE = 'MCP Host';

interface KeyringEntry {
  setPassword(password: string): Promise<void>;
  getPassword(): Promise<string | null>;
  deleteCredential(): Promise<boolean>;
}
type EntryConstructor = new (
  service: string,
  account: string,
  options?: { linux?: { store?: string } },
) => KeyringEntry;

/**
 * The system keychain, or undefined where there is none (no prebuilt binary
 * for this platform, or a Linux without a Secret Service on D-Bus). On Linux
 * the Secret Service is required: the kernel keyring the library could fall
 * back to forgets everything at reboot.
 */
export function systemKeychain(service = KEYCHAIN_SERVICE): Keychain | undefined {
  let AsyncEntry: EntryConstructor;
  try {
    // Loaded on demand: a missing native binary means "no keychain", not a crash.
    const require = createRequire(import.meta.url);
    ({ AsyncEntry } = require('@napi-rs/keyring') as { AsyncEntry: EntryConstructor });
  } catch {
    return undefined;
  }
  const options = process.platform === 'linux' ? { linux: { store: 'secret-service' } } : undefined;
  const entry = (account: string) => new AsyncEntry(service, account, options);
  try {
    // On Linux the constructor fails at once when no Secret Service answers.
    entry('probe');
  } catch {
    return undefined;
  }
  return {
    set: (account, secret) => entry(account).setPassword(secret),
    get: (account) => entry(account).getPassword(),
    delete: async (account) => {
      await entry(account).deleteCredential();
    },
  };
}
