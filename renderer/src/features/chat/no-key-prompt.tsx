import { useChat, useChatActions } from './chat-context.js';
import { useSecretStorageSentence } from '../../common/secret-storage.js';

/** Shown in the chat while no API key is set; everything else in the app keeps working. */
export function NoKeyPrompt() {
  const { setView } = useChatActions();
  const apiKey = useChat((s) => s.settings?.apiKey);
  const heldFor = apiKey?.heldFor;
  const storage = useSecretStorageSentence();
  return (
    <div className="card setup-card" role="region" aria-label="Set up Claude">
      <span className="setup-card__icon" aria-hidden="true">
        ✦
      </span>
      <h2>Connect to Claude</h2>
      {heldFor !== undefined ? (
        <p>
          Your key was saved for <code>{heldFor}</code>, and the base URL now points to another host. In
          Settings, allow the key there or enter a key for it. Your servers and tools work without it.
        </p>
      ) : (
        <p>
          To chat, add your Anthropic API key in Settings. {storage} Your servers and tools work without it.
        </p>
      )}
      <button
        type="button"
        className="btn btn--primary"
        onClick={() => {
          setView('settings');
        }}
      >
        Open Settings
      </button>
    </div>
  );
}
