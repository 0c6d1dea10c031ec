import { useId, useMemo, useState } from 'react';
import type { ToolResultChatBlock, ToolUseChatBlock } from '../../../../shared/model/chat.js';
import { useChat } from './chat-context.js';
import { formatDuration } from '../../common/text.js';
import { Spinner } from '../../common/spinner.js';
import { ChatToolApp } from '../apps/chat-tool-app.js';
import { AllowedByBadge } from './allowed-by-badge.js';
import { FoundBySearchBadge } from './found-by-search-badge.js';
import { ToolCardHeader } from './tool-card-header.js';
import { ToolResultBody } from './tool-result-body.js';
import { SandboxBlockedNote } from './sandbox-blocked-note.js';
import { Deferred } from '../../common/on-demand.js';
import { TaskLine } from '../tasks/lazy.js';

type CardStatus =
  'pending' | 'waiting-consent' | 'running' | 'task' | 'done' | 'error' | 'denied' | 'cancelled';

const STATUS_TEXT: Record<CardStatus, string> = {
  pending: 'Pending',
  'waiting-consent': 'Waiting for your approval',
  running: 'Running',
  task: 'Runs as a task',
  done: 'Done',
  error: 'Error',
  denied: 'Denied',
  cancelled: 'Cancelled',
};

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/**
 * One tool call in the conversation: a collapsible card with the server and
 * tool, its state (live while it runs, with the server's progress), the
 * duration, the arguments and the result. Open while it waits or runs.
 */
export function ToolCard({
  call,
  result,
}: {
  call: ToolUseChatBlock;
  result: ToolResultChatBlock | undefined;
}) {
  const live = useChat((s) => s.toolCalls[call.id]);
  const bodyId = useId();
  // A call that became a task answered "started" at once; the task line below says how it goes.
  const status: CardStatus = result
    ? result.status === 'ok'
      ? result.isError
        ? 'error'
        : result.taskId !== undefined
          ? 'task'
          : 'done'
      : result.status
    : (live?.status ?? 'pending');
  const active = status === 'running' || status === 'waiting-consent';
  const [open, setOpen] = useState<boolean | undefined>(undefined);
  const expanded = open ?? active;
  const durationMs = result?.durationMs ?? live?.durationMs;
  const args = useMemo(() => prettyJson(call.inputJson), [call.inputJson]);
  const progress = status === 'running' ? live?.progress : undefined;

  return (
    <div className={`tool-card tool-card--${status}`}>
      <ToolCardHeader
        expanded={expanded}
        bodyId={bodyId}
        onToggle={() => {
          setOpen(!expanded);
        }}
        icon={active ? <Spinner /> : '⚙'}
        tool={call.tool}
        // A host tool (load_skill) has no server: the host itself ran it.
        where={call.server === '' ? 'by the host' : `on ${call.server}`}
        status={status}
        statusText={STATUS_TEXT[status]}
        badges={call.foundBySearch === true && <FoundBySearchBadge />}
        after={
          <>
            {durationMs !== undefined && (
              <span className="tool-card__duration">{formatDuration(durationMs)}</span>
            )}
            <AllowedByBadge
              allowedBy={result?.allowedBy ?? live?.allowedBy}
              rule={result?.rule ?? live?.rule}
            />
          </>
        }
      />
      {progress && (
        <div className="tool-card__progress">
          <progress
            value={progress.total !== undefined ? progress.progress : undefined}
            max={progress.total}
            aria-label={`Progress of ${call.tool}`}
          />
          <span>
            {progress.message ??
              (progress.total !== undefined
                ? `${progress.progress} / ${progress.total}`
                : `${progress.progress}`)}
          </span>
        </div>
      )}
      {result?.sandboxBlocked !== undefined && result.sandboxBlocked.length > 0 && (
        <SandboxBlockedNote server={call.server} blocked={result.sandboxBlocked} />
      )}
      <Deferred fallback={null}>
        <TaskLine toolCallId={call.id} />
      </Deferred>
      <ChatToolApp call={call} result={result} />
      {expanded && (
        <div className="tool-card__body" id={bodyId}>
          <section aria-label="Arguments">
            <h4 className="tool-card__label">Arguments</h4>
            <pre className="code-block tool-card__args">{args}</pre>
          </section>
          {result ? (
            <ToolResultBody result={result} />
          ) : (
            live?.summary !== undefined && <p className="muted">{live.summary}</p>
          )}
        </div>
      )}
    </div>
  );
}
