import type { SecretStorageInfo } from '../../../shared/model/app.js';
import { useAppState } from '../store/store-context.js';

/**
 * Where the host keeps a credential the person is about to save (API key,
 * OAuth tokens, a secret install value), in the host's own sentence: the
 * same words in every place that stores one, never "encrypted" when it is not.
 */
export function useSecretStorage(): SecretStorageInfo | undefined {
  return useAppState((s) => s.appInfo?.secretStorage);
}

/** The storage sentence, or '' while the host has not said yet. */
export function useSecretStorageSentence(): string {
  return useSecretStorage()?.sentence ?? '';
}

/** The storage sentence as a hint paragraph, marked as a warning when nothing really protects it. */
export function SecretStorageNote({ className = 'field__hint' }: { className?: string }) {
  const storage = useSecretStorage();
  if (!storage) return null;
  const warn = storage.kind === 'obfuscated-file' ? ' settings-card__warn-text' : '';
  return <p className={`${className}${warn} secret-storage-note`}>{storage.sentence}</p>;
}
