import { useState } from 'react';
import type { ConversationSummary } from '../../../../shared/model/chat.js';
import { useChat, useChatActions } from './chat-context.js';
import { DeleteConversationDialog } from './lazy.js';
import { Deferred } from '../../common/on-demand.js';
import { ConversationItem } from './conversation-item.js';

/** New chat, search, and the conversations newest first. */
export function ConversationList() {
  const conversations = useChat((s) => s.conversations);
  const searchResults = useChat((s) => s.searchResults);
  const query = useChat((s) => s.searchQuery);
  const loaded = useChat((s) => s.conversationsLoaded);
  const { createConversation, search } = useChatActions();
  const [deleting, setDeleting] = useState<ConversationSummary>();
  const shown = searchResults ?? conversations;

  return (
    <nav className="conv-list" aria-label="Conversations">
      <div className="conv-list__top">
        <button
          type="button"
          className="btn btn--primary conv-list__new"
          onClick={() => {
            void createConversation();
          }}
        >
          <span className="btn__icon" aria-hidden="true">
            +
          </span>
          New chat
        </button>
        <input
          type="search"
          className="field__control conv-list__search"
          placeholder="Search conversations"
          aria-label="Search conversations"
          value={query}
          onChange={(event) => {
            search(event.target.value);
          }}
        />
      </div>
      {shown.length === 0 ? (
        <p className="conv-list__empty">
          {!loaded ? 'Loading…' : searchResults ? `Nothing matches “${query}”.` : 'No conversations yet.'}
        </p>
      ) : (
        <ul className="conv-list__items">
          {shown.map((summary) => (
            <li key={summary.id}>
              <ConversationItem summary={summary} onDelete={setDeleting} />
            </li>
          ))}
        </ul>
      )}
      {deleting && (
        <Deferred>
          <DeleteConversationDialog
            summary={deleting}
            onClose={() => {
              setDeleting(undefined);
            }}
          />
        </Deferred>
      )}
    </nav>
  );
}
