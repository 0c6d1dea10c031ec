import { useState } from 'react';
import type { ChatMessage } from '../../../../shared/model/chat.js';
import { useChatActions } from './chat-context.js';
import { copyText } from '../logs/copy-text.js';

/** The text of a message as the person would copy it: its text blocks, in order. */
export function messageText(message: ChatMessage): string {
  return message.blocks
    .flatMap((b) => (b.type === 'text' ? [b.text] : b.type === 'notice' ? [b.text] : []))
    .join('\n\n');
}

/**
 * Under a message: Copy; Edit for the person's own messages; Regenerate for
 * the last answer; and, where a message has other versions, ‹ n / m › to
 * step between them. Hidden while a turn runs, except Copy.
 */
export function MessageActions({
  message,
  lastAnswer,
  running,
  onEdit,
}: {
  message: ChatMessage;
  lastAnswer: boolean;
  running: boolean;
  onEdit: () => void;
}) {
  const { regenerate, switchBranch } = useChatActions();
  const [copied, setCopied] = useState<boolean>();
  const text = messageText(message);
  const who = message.role === 'user' ? 'your message' : 'Claude’s answer';
  return (
    <div className="message-actions">
      {message.branch && (
        <span className="branch-switcher" role="group" aria-label={`Versions of ${who}`}>
          <button
            type="button"
            className="message-actions__btn"
            aria-label="Previous version"
            disabled={running || message.branch.index <= 1}
            onClick={() => {
              void switchBranch(message.branch?.siblingIds[message.branch.index - 2] ?? '');
            }}
          >
            ‹
          </button>
          <span className="branch-switcher__count">
            {message.branch.index} / {message.branch.count}
          </span>
          <button
            type="button"
            className="message-actions__btn"
            aria-label="Next version"
            disabled={running || message.branch.index >= message.branch.count}
            onClick={() => {
              void switchBranch(message.branch?.siblingIds[message.branch.index] ?? '');
            }}
          >
            ›
          </button>
        </span>
      )}
      {text !== '' && (
        <button
          type="button"
          className="message-actions__btn"
          aria-label={`Copy ${who}`}
          onClick={() => {
            void copyText(text).then(setCopied);
          }}
        >
          {copied === true ? 'Copied' : copied === false ? 'Copy failed' : 'Copy'}
        </button>
      )}
      {message.role === 'user' && !running && (
        <button
          type="button"
          className="message-actions__btn"
          aria-label="Edit your message"
          onClick={onEdit}
        >
          Edit
        </button>
      )}
      {lastAnswer && !running && (
        <button
          type="button"
          className="message-actions__btn"
          aria-label="Regenerate the answer"
          onClick={() => {
            void regenerate();
          }}
        >
          Regenerate
        </button>
      )}
    </div>
  );
}
