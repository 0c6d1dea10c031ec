import { useState } from 'react';
import type { ConversationSummary } from '../../../../shared/model/chat.js';
import { useChat, useChatActions } from './chat-context.js';

const dateFormat = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });
const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });

function when(epochMs: number): string {
  const date = new Date(epochMs);
  return date.toDateString() === new Date().toDateString()
    ? timeFormat.format(date)
    : dateFormat.format(date);
}

/** One conversation: select it, rename it in place, or ask to delete it. */
export function ConversationItem({
  summary,
  onDelete,
}: {
  summary: ConversationSummary;
  onDelete: (summary: ConversationSummary) => void;
}) {
  const selected = useChat((s) => s.selectedId === summary.id);
  const { selectConversation, renameConversation } = useChatActions();
  const [renaming, setRenaming] = useState(false);
  const [title, setTitle] = useState(summary.title);

  if (renaming) {
    const finish = (save: boolean) => {
      setRenaming(false);
      const next = title.trim();
      if (save && next !== '' && next !== summary.title) void renameConversation(summary.id, next);
    };
    return (
      <form
        className="conv-item conv-item--editing"
        onSubmit={(event) => {
          event.preventDefault();
          finish(true);
        }}
      >
        <input
          // The person just asked to rename: the field is what they want to type in.
          autoFocus
          className="field__control"
          aria-label="Conversation title"
          value={title}
          maxLength={200}
          onChange={(event) => {
            setTitle(event.target.value);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.preventDefault();
              finish(false);
            }
          }}
          onBlur={() => {
            finish(true);
          }}
        />
      </form>
    );
  }

  return (
    <div className="conv-item" aria-current={selected ? 'page' : undefined}>
      <button
        type="button"
        className="conv-item__open"
        aria-current={selected ? 'page' : undefined}
        onClick={() => {
          selectConversation(summary.id);
        }}
      >
        <span className="conv-item__title">{summary.title || 'Untitled'}</span>
        <span className="conv-item__meta">
          {when(summary.updatedAt)} · {summary.messageCount} msg
        </span>
        {summary.snippet !== undefined && (
          <span className="conv-item__snippet clamp-2">{summary.snippet}</span>
        )}
      </button>
      <span className="conv-item__actions">
        <button
          type="button"
          className="icon-btn"
          aria-label={`Rename “${summary.title}”`}
          title="Rename"
          onClick={() => {
            setTitle(summary.title);
            setRenaming(true);
          }}
        >
          ✎
        </button>
        <button
          type="button"
          className="icon-btn icon-btn--danger"
          aria-label={`Delete “${summary.title}”`}
          title="Delete"
          onClick={() => {
            onDelete(summary);
          }}
        >
          ×
        </button>
      </span>
    </div>
  );
}
