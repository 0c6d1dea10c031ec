import { useId, useState } from 'react';
import type { TaskResultChatBlock } from '../../../../shared/model/chat.js';
import { ToolResultBody } from './tool-result-body.js';

const STATUS_TEXT: Record<TaskResultChatBlock['status'], string> = {
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
  lost: 'Lost',
};

/**
 * The end of a task an earlier tool call started, as it was handed to
 * Claude: which tool and task, how it ended, and its result (folded; open
 * it to read). Claude's answer follows it.
 */
export function TaskResultCard({ block }: { block: TaskResultChatBlock }) {
  const bodyId = useId();
  const [open, setOpen] = useState(false);
  const failed = block.status !== 'completed' || block.isError;
  const status = failed ? (block.status === 'completed' ? 'error' : block.status) : 'done';
  return (
    <div className={`tool-card task-result-card${failed ? ' tool-card--error' : ''}`}>
      <button
        type="button"
        className="tool-card__header"
        aria-expanded={open}
        aria-controls={bodyId}
        onClick={() => {
          setOpen(!open);
        }}
      >
        <span className="collapsible__chevron" aria-hidden="true" />
        <span className="tool-card__icon" aria-hidden="true">
          ↳
        </span>
        <span className="tool-card__name">
          <span className="task-result-card__label">Task result</span>
          <span className="tool-card__tool">{block.tool}</span>
          <span className="tool-card__server">on {block.server}</span>
        </span>
        <span className={`tool-card__status tool-card__status--${status}`}>
          {block.isError && block.status === 'completed'
            ? 'Completed with an error'
            : STATUS_TEXT[block.status]}
        </span>
      </button>
      {open && (
        <div className="tool-card__body" id={bodyId}>
          <p className="muted task-result-card__id">
            Task <span className="mono">{block.taskId}</span>, sent to Claude as the result of the earlier
            call.
          </p>
          <ToolResultBody
            result={{
              type: 'tool_result',
              toolUseId: block.toolUseId,
              server: block.server,
              tool: block.tool,
              status: block.isError ? 'error' : 'ok',
              isError: block.isError,
              content: block.content,
              ...(block.structuredContent !== undefined
                ? { structuredContent: block.structuredContent }
                : {}),
              ...(block.truncated ? { truncated: block.truncated } : {}),
            }}
          />
        </div>
      )}
    </div>
  );
}
