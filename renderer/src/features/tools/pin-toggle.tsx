import { useState } from 'react';
import { useChat, useChatActions } from '../chat/chat-context.js';

/**
 * Pins a tool for the chat: with tool search on, its definition is still
 * sent with every request, so Claude can call it without searching first.
 */
export function PinToggle({ server, tool }: { server: string; tool: string }) {
  const pinned = useChat((s) => s.settings?.pinnedTools.some((p) => p.server === server && p.tool === tool));
  const { setToolPinned } = useChatActions();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  if (pinned === undefined) return null;
  return (
    <span className="pin-toggle">
      <label
        className="conv-settings__check"
        title="With tool search on, a pinned tool is always loaded for Claude"
      >
        <input
          type="checkbox"
          checked={pinned}
          disabled={busy}
          onChange={() => {
            setBusy(true);
            setError(undefined);
            void setToolPinned(server, tool, !pinned).then((result) => {
              setBusy(false);
              if (!result.ok) setError(result.error.message);
            });
          }}
        />
        Pinned for chat
      </label>
      {error !== undefined && (
        <span className="field__error" role="alert">
          {error}
        </span>
      )}
    </span>
  );
}
