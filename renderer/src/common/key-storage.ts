import type { ApiKeyState } from '../../../shared/model/settings.js';

/** Where the host keeps (or will keep) the API key, in plain words: never "encrypted" when it is not. */
export function keyStorageSentence(key: ApiKeyState | undefined): string {
  const storage = key?.storage ?? (key?.encrypted === true ? 'encrypted' : 'obfuscated-file');
  switch (storage) {
    case 'os-keychain':
      return 'It is kept in your system keychain.';
    case 'encrypted':
      return 'It is stored encrypted, with a key your operating system keeps.';
    case 'obfuscated-file':
      return 'This system offers no keychain, so the key is only obfuscated (not encrypted) in a file in the data folder that only your user account can read (0600).';
  }
}
