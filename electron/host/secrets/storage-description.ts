import type { SecretStorage } from '../platform.js';
import type { SecretStorageInfo } from '../../../shared/model/app.js';

/**
 * The one sentence that says where a credential the person is about to save
 * (an API key, OAuth tokens, a secret install value) will be kept and how it
 * is protected. The UI and the CLI show it as is, before anything is stored,
 * so it is the same everywhere and never says "encrypted" when it is not.
 */
export function describeSecretStorage(storage: SecretStorage): SecretStorageInfo {
  return { kind: storage, sentence: SENTENCES[storage] };
}

const SENTENCES: Record<SecretStorage, string> = {
  'os-keychain': 'Saved credentials are kept in your system keychain.',
  encrypted:
    "Saved credentials are kept encrypted in the app's data folder, with a key your operating system keeps.",
  'obfuscated-file':
    "No system keychain is available, so saved credentials are only obfuscated (not encrypted) in a file in the app's data folder (0600): anyone with access to your user account can read them.",
};
