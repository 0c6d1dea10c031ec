import { useId, useLayoutEffect, useRef, useState } from 'react';
import { useChatActions } from './chat-context.js';

/**
 * Edits one of the person's earlier messages in place. "Send" sends the new
 * text as a new version (a branch: the old one stays reachable); Esc or
 * Cancel leaves everything as it was. When the host refuses, the text stays.
 */
export function MessageEditor({
  messageId,
  initial,
  onDone,
}: {
  messageId: string;
  initial: string;
  onDone: () => void;
}) {
  const { editMessage } = useChatActions();
  const [text, setText] = useState(initial);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const ref = useRef<HTMLTextAreaElement>(null);
  const errorId = useId();
  useLayoutEffect(() => {
    const area = ref.current;
    area?.focus();
    area?.setSelectionRange(area.value.length, area.value.length);
  }, []);

  const send = () => {
    if (busy) return;
    setBusy(true);
    setError(undefined);
    void editMessage(messageId, text).then((result) => {
      setBusy(false);
      if (result.ok) onDone();
      else setError(result.error.message);
    });
  };

  return (
    <form
      className="message-editor"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <textarea
        ref={ref}
        className="composer__input message-editor__input"
        aria-label="Edit your message"
        aria-describedby={error !== undefined ? errorId : undefined}
        rows={Math.min(10, Math.max(2, text.split('\n').length))}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault();
            onDone();
          } else if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            send();
          }
        }}
      />
      {error !== undefined && (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="message-editor__buttons">
        <button type="button" className="btn" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="btn btn--primary" disabled={busy || text.trim() === ''}>
          Send
        </button>
      </div>
    </form>
  );
}
