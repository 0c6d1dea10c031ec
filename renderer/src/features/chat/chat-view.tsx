import { useChat } from './chat-context.js';
import { ConversationList } from './conversation-list.js';
import { ConversationPane } from './conversation-pane.js';
import { NoConversation } from './no-conversation.js';

/** Chat: the conversation list on the left, the selected conversation on the right. */
export function ChatView() {
  const selectedId = useChat((s) => s.selectedId);
  return (
    <div className="chat">
      <ConversationList />
      <main className="chat__main" aria-label="Conversation">
        <h1 className="visually-hidden">Chat with Claude</h1>
        {selectedId === undefined ? (
          <NoConversation />
        ) : (
          <ConversationPane key={selectedId} id={selectedId} />
        )}
      </main>
    </div>
  );
}
