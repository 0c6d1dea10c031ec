import { useState } from 'react';
import type { ContentBlock } from '../../../../shared/model/server.js';
import type { ToolResultChatBlock } from '../../../../shared/model/chat.js';
import type { HostErrorValue } from '../../../../shared/ipc/result.js';
import { useChatActions } from './chat-context.js';
import { formatBytes } from '../../common/text.js';
import { Collapsible } from '../../common/collapsible.js';
import { Spinner } from '../../common/spinner.js';
import { ContentBlockView } from '../tools/content-block.js';

/** From this size on, a result starts folded (what is shown is already cut by the host). */
const LARGE = 1024 * 1024;

/**
 * A tool result inside its card: the content blocks as plain text and media
 * (never HTML). A result the host cut for display says so and can fetch the
 * whole text on request.
 */
export function ToolResultBody({ result }: { result: ToolResultChatBlock }) {
  const { getToolResult } = useChatActions();
  const [full, setFull] = useState<{ content: ContentBlock[]; structuredContent?: string | undefined }>();
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<HostErrorValue>();
  const content = full?.content ?? result.content;
  const structured = full?.structuredContent ?? result.structuredContent;
  const totalChars = result.truncated?.totalChars;
  const large = totalChars !== undefined && totalChars >= LARGE;

  const blocks = (
    <div className="result__blocks">
      {content.length === 0 && <p className="muted">The tool returned no content.</p>}
      {content.map((block, index) => (
        <ContentBlockView key={index} block={block} />
      ))}
    </div>
  );

  return (
    <section
      aria-label="Result"
      className={`result tool-card__result${result.isError || result.status === 'error' ? ' result--error' : ''}`}
    >
      {totalChars !== undefined && !full && (
        <div className="tool-card__truncated" role="note">
          <span>
            The result is {formatBytes(totalChars)} of text. The host cut it: Claude received the shortened
            version shown here{large ? ' (folded)' : ''}, with a note that it was cut.
          </span>
          <button
            type="button"
            className="btn"
            disabled={loading}
            onClick={() => {
              setLoading(true);
              void getToolResult(result.toolUseId).then((answer) => {
                setLoading(false);
                if (answer.ok) setFull(answer.value);
                else setError(answer.error);
              });
            }}
          >
            {loading && <Spinner />}
            Show the full result
          </button>
        </div>
      )}
      {error && (
        <div className="inline-alert" role="alert">
          {error.message}
        </div>
      )}
      {large ? (
        <Collapsible title={full ? 'Full result' : 'Shortened result'} meta={formatBytes(totalChars)}>
          {blocks}
        </Collapsible>
      ) : (
        blocks
      )}
      {structured !== undefined && (
        <Collapsible title="Structured content" className="result__structured">
          <pre className="code-block">{structured}</pre>
        </Collapsible>
      )}
    </section>
  );
}
