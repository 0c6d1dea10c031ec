import { readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NodePlatform } from '../../../../../electron/host/node-platform.js';
import { systemKeychain } from '../../../../../electron/host/secrets/keychain.js';
import type { Keychain } from '../../../../../electron/host/secrets/keychain.js';
import { SettingsStore } from '../../../../../electron/host/persistence/settings-store.js';
import { memoryKeychain } from '../../../../helpers/memory-keychain.js';
import { tempDir } from '../../../../helpers/servers.js';

const KEY = 'sk-ant-secret-0123456789-abcd';

async function storeWith(keychain: Keychain | null) {
  const dir = tempDir();
  const store = new SettingsStore(new NodePlatform(dir, undefined, { keychain }), dir);
  await store.load();
  return store;
}

describe('where the API key is kept', () => {
  it('in the OS keychain when there is one: the file holds only a reference', async () => {
    const keychain = memoryKeychain();
    const store = await storeWith(keychain);
    expect(store.settings().apiKey.storage).toBe('os-keychain');
    const settings = await store.setApiKey(KEY);
    expect(settings.apiKey).toMatchObject({ set: true, encrypted: true, storage: 'os-keychain' });
    const file = readFileSync(store.path, 'utf8');
    expect(file).not.toContain(KEY);
    expect(file).not.toContain(Buffer.from(KEY).toString('base64'));
    expect([...keychain.entries.values()]).toEqual([KEY]);
    expect(await store.apiKey()).toBe(KEY);

    // Replacing or clearing the key removes the old keychain entry too.
    await store.setApiKey(`${KEY}-2`);
    expect([...keychain.entries.values()]).toEqual([`${KEY}-2`]);
    await store.clearApiKey();
    expect(keychain.entries.size).toBe(0);
  });

  it('where there is none, obfuscated in a file only the user can read, and it says so', async () => {
    const store = await storeWith(null);
    expect(store.settings().apiKey).toEqual({ set: false, encrypted: false, storage: 'obfuscated-file' });
    const settings = await store.setApiKey(KEY);
    expect(settings.apiKey).toMatchObject({ set: true, encrypted: false, storage: 'obfuscated-file' });
    expect(statSync(store.path).mode & 0o777).toBe(0o600);
    expect(readFileSync(store.path, 'utf8')).not.toContain(KEY);
    expect(await store.apiKey()).toBe(KEY);
  });

  it('a keychain that refuses the key is reported, not silently replaced by obfuscation', async () => {
    const keychain: Keychain = {
      set: () => Promise.reject(new Error('the keychain is locked')),
      get: () => Promise.resolve(null),
      delete: () => Promise.resolve(),
    };
    const store = await storeWith(keychain);
    await expect(store.setApiKey(KEY)).rejects.toThrow(
      'The system keychain did not store the key: the keychain is locked',
    );
    expect(store.settings().apiKey.set).toBe(false);
  });

  it.skipIf(process.platform !== 'linux' || process.env.DBUS_SESSION_BUS_ADDRESS !== undefined)(
    'Linux without a Secret Service on D-Bus has no keychain (never the kernel keyring, which forgets at reboot)',
    () => {
      expect(systemKeychain()).toBeUndefined();
    },
  );
});
