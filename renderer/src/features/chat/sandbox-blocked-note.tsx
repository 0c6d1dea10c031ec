import { useActions } from '../../store/store-context.js';
import { ServerText } from '../../common/server-text.js';
import { useChatActions } from './chat-context.js';

/**
 * One line on a failed tool call's card when the server's sandbox blocked
 * something while it ran (the host attributes it; nothing is guessed here),
 * with the way to the server's Settings, where the person can allow it.
 */
export function SandboxBlockedNote({ server, blocked }: { server: string; blocked: readonly string[] }) {
  const { selectServer } = useActions();
  const { setView } = useChatActions();
  return (
    <div className="tool-card__sandbox" role="note">
      <span>
        <strong>Blocked by the sandbox:</strong> <ServerText text={blocked.join(' · ')} /> — change in the
        server’s Settings
      </span>
      <button
        type="button"
        className="btn"
        onClick={() => {
          selectServer(server, 'settings');
          setView('servers');
        }}
      >
        Open Settings of {server}
      </button>
    </div>
  );
}
