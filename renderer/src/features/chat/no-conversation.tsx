import { useChat } from './chat-context.js';
import { Composer } from './composer.js';
import { NoKeyPrompt } from './no-key-prompt.js';

/** Nothing selected yet: a welcome, and a composer that starts a conversation. */
export function NoConversation() {
  const keySet = useChat((s) => s.settings?.apiKey.set);
  return (
    <section className="conversation" aria-label="New conversation">
      <div className="conversation__scroller">
        <div className="chat-welcome">
          {keySet === false ? (
            <NoKeyPrompt />
          ) : (
            <>
              <h2>Start a conversation</h2>
              <p className="muted">
                Claude can use the tools of your connected servers. Every tool call waits for your approval.
              </p>
            </>
          )}
        </div>
      </div>
      <Composer conversationId={undefined} running={false} />
    </section>
  );
}
