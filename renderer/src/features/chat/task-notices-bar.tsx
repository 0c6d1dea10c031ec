import { useChat, useChatActions } from './chat-context.js';

/**
 * Over every view: a task finished in a conversation the person is not
 * looking at, and Claude's answer continues there. "Open" goes there (and
 * clears the conversation's notices); "Dismiss" clears one.
 */
export function TaskNoticesBar() {
  const notices = useChat((s) => s.taskNotices);
  const conversations = useChat((s) => s.conversations);
  const { selectConversation, setView, dismissTaskNotice } = useChatActions();
  if (notices.length === 0) return null;
  return (
    <div role="status" aria-label="Finished tasks">
      {notices.map((notice) => {
        const title = conversations.find((c) => c.id === notice.conversationId)?.title || 'Untitled';
        return (
          <div key={notice.messageId} className="banner banner--info">
            <span className="banner__text">
              Task “{notice.tool}” finished — the answer continues in “{title}”.
            </span>
            <button
              type="button"
              className="btn btn--small"
              onClick={() => {
                setView('chat');
                selectConversation(notice.conversationId);
              }}
            >
              Open conversation
            </button>
            <button
              type="button"
              className="btn btn--small"
              aria-label={`Dismiss the notice about ${notice.tool}`}
              onClick={() => {
                dismissTaskNotice(notice.messageId);
              }}
            >
              Dismiss
            </button>
          </div>
        );
      })}
    </div>
  );
}
