import { memo, useState } from 'react';
import type { ChatMessage, ToolResultChatBlock, Usage } from '../../../../shared/model/chat.js';
import { formatUsage } from './usage.js';
import { Markdown } from '../markdown/lazy.js';
import { Deferred } from '../../common/on-demand.js';
import { AttachedFile } from './attached-file.js';
import { CompactionNote } from './compaction-note.js';
import { MessageActions, messageText } from './message-actions.js';
import { MessageEditor } from './message-editor.js';
import { NoticeView } from './notice-view.js';
import { SentContext } from './sent-context.js';
import { ThinkingBlock } from './thinking-block.js';
import { ToolCard } from './tool-card.js';
import { ToolSearchNote } from './tool-search-note.js';
import { TaskResultCard } from './task-result-card.js';

interface MessageRowProps {
  message: ChatMessage;
  results: ReadonlyMap<string, ToolResultChatBlock>;
  /** Set on the last assistant message of a turn: the turn's tokens and cost. */
  turnUsage: Usage | undefined;
  /** The last answer of the conversation: it can be regenerated. */
  lastAnswer: boolean;
  /** A turn is running: nothing can be edited or regenerated now. */
  running: boolean;
}

const safeImage = (mimeType: string): boolean => /^image\/(png|jpeg|gif|webp)$/.test(mimeType);

/** One committed message. Re-renders only when it, its tool results or its usage change. */
export const MessageRow = memo(function MessageRow({
  message,
  results,
  turnUsage,
  lastAnswer,
  running,
}: MessageRowProps) {
  const label =
    message.role === 'user'
      ? 'You'
      : message.role === 'assistant'
        ? 'Claude'
        : message.blocks.some((b) => b.type === 'task_result')
          ? 'Task'
          : 'Host';
  const [editing, setEditing] = useState(false);
  const withActions = message.role === 'user' || message.role === 'assistant';
  return (
    <article className={`message message--${message.role}`} aria-label={`${label} said`}>
      {message.role !== 'notice' && <div className="message__author">{label}</div>}
      {editing ? (
        <MessageEditor
          messageId={message.id}
          initial={messageText(message)}
          onDone={() => {
            setEditing(false);
          }}
        />
      ) : (
        <div className="message__body">
          {message.blocks.map((block, index) => {
            switch (block.type) {
              case 'text':
                return message.role === 'user' ? (
                  <p key={index} className="message__plain">
                    {block.text}
                  </p>
                ) : (
                  <Deferred key={index} fallback={<div className="message__plain">{block.text}</div>}>
                    <Markdown text={block.text} />
                  </Deferred>
                );
              case 'image':
                return safeImage(block.mimeType) ? (
                  <img
                    key={index}
                    className="message__image"
                    src={`data:${block.mimeType};base64,${block.data}`}
                    alt={block.name !== undefined ? `Attached image ${block.name}` : 'Attached image'}
                  />
                ) : null;
              case 'document':
                return <AttachedFile key={index} block={block} />;
              case 'thinking':
                return <ThinkingBlock key={index} text={block.thinking} />;
              case 'redacted_thinking':
                return <ThinkingBlock key={index} text="" redacted />;
              case 'tool_search':
                return <ToolSearchNote key={block.id} block={block} />;
              case 'compaction':
                return <CompactionNote key={index} block={block} />;
              case 'tool_use':
                return <ToolCard key={block.id} call={block} result={results.get(block.id)} />;
              case 'tool_result':
                // A result whose call is not in this conversation (never expected): show it alone.
                return (
                  <ToolCard
                    key={block.toolUseId}
                    call={{
                      type: 'tool_use',
                      id: block.toolUseId,
                      server: block.server,
                      tool: block.tool,
                      inputJson: '{}',
                    }}
                    result={block}
                  />
                );
              case 'task_result':
                return <TaskResultCard key={`${block.taskId}-${String(index)}`} block={block} />;
              case 'notice':
                return <NoticeView key={index} level={block.level} text={block.text} />;
              case 'resource_context':
              case 'prompt_message':
                return <SentContext key={index} block={block} />;
            }
          })}
        </div>
      )}
      {withActions && !editing && (
        <MessageActions
          message={message}
          lastAnswer={lastAnswer}
          running={running}
          onEdit={() => {
            setEditing(true);
          }}
        />
      )}
      {turnUsage && (
        <div className="message__usage" title="Tokens and estimated cost of this turn">
          {formatUsage(turnUsage)}
        </div>
      )}
    </article>
  );
}, sameRow);

function sameRow(a: MessageRowProps, b: MessageRowProps): boolean {
  if (a.message !== b.message || a.turnUsage !== b.turnUsage) return false;
  if (a.lastAnswer !== b.lastAnswer || a.running !== b.running) return false;
  for (const block of a.message.blocks) {
    if (block.type === 'tool_use' && a.results.get(block.id) !== b.results.get(block.id)) return false;
  }
  return true;
}
