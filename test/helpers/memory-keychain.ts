import type { Keychain } from '../../electron/host/secrets/keychain.js';

/** An OS keychain in memory, standing in for the real one: `entries` is what Platform.encryptSecret stored there. */
export function memoryKeychain(): Keychain & { entries: Map<string, string> } {
  const entries = new Map<string, string>();
  return {
    entries,
    set: (account, secret) => {
      entries.set(account, secret);
      return Promise.resolve();
    },
    get: (account) => Promise.resolve(entries.get(account) ?? null),
    delete: (account) => {
      entries.delete(account);
      return Promise.resolve();
    },
  };
}
