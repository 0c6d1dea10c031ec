import { useChatActions } from '../../store/chat-context.js';

/** Shown in the chat while no API key is set; everything else in the app keeps working. */
export function NoKeyPrompt() {
  const { setView } = useChatActions();
  return (
    <div className="card setup-card" role="region" aria-label="Set up Claude">
      <span className="setup-card__icon" aria-hidden="true">
        ✦
      </span>
      <h2>Connect to Claude</h2>
      <p>
        To chat, add your Anthropic API key in Settings. It is stored encrypted on this computer and is never
        shown again. Your servers and tools work without it.
      </p>
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
