import { useEffect, useRef, useState } from 'react';
import { useChat, useChatActions } from '../../store/chat-context.js';

/**
 * Where the person writes. Enter sends, Shift+Enter adds a line, Esc stops
 * the running turn. While a turn runs, Send becomes Stop.
 */
export function Composer({
  conversationId,
  running,
}: {
  conversationId: string | undefined;
  running: boolean;
}) {
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const keySet = useChat((s) => s.settings?.apiKey.set);
  const { send, stop } = useChatActions();
  const ref = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    ref.current?.focus();
  }, [conversationId]);

  const submit = () => {
    const message = text.trim();
    if (message === '' || running || sending) return;
    setSending(true);
    void send(message).then((result) => {
      setSending(false);
      // Keep the text when it was not sent, so nothing typed is lost.
      if (result.ok) setText('');
    });
  };

  return (
    <form
      className="composer"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <textarea
        ref={ref}
        className="composer__input"
        aria-label="Message"
        placeholder={keySet === false ? 'Add an API key in Settings to chat' : 'Message Claude…'}
        rows={Math.min(8, Math.max(1, text.split('\n').length))}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            submit();
          } else if (event.key === 'Escape' && running) {
            event.preventDefault();
            void stop();
          }
        }}
      />
      {running ? (
        <button
          type="button"
          className="btn composer__stop"
          onClick={() => {
            void stop();
          }}
        >
          <span className="composer__stop-icon" aria-hidden="true" />
          Stop
        </button>
      ) : (
        <button type="submit" className="btn btn--primary" disabled={text.trim() === '' || sending}>
          Send
        </button>
      )}
      <p className="composer__hint">Enter to send · Shift+Enter for a new line · Esc to stop</p>
    </form>
  );
}
