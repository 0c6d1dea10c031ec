import { useId, useState } from 'react';
import type { TaskResultChatBlock } from '../../../../shared/model/chat.js';
import { ToolCardHeader } from './tool-card-header.js';
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
      <ToolCardHeader
        expanded={open}
        bodyId={bodyId}
        onToggle={() => {
          setOpen(!open);
        }}
        icon="↳"
        label="Task result"
        tool={block.tool}
        where={`on ${block.server}`}
        status={status}
        statusText={
          block.isError && block.status === 'completed'
            ? 'Completed with an error'
            : STATUS_TEXT[block.status]
        }
      />
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
