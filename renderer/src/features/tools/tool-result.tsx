import type { ToolCallResult } from '../../../../shared/model/server.js';
import { formatDuration, plural } from '../../common/text.js';
import { Collapsible } from '../../common/collapsible.js';
import { ContentBlockView } from './content-block.js';

/** The outcome of a call: every content block, then structuredContent if any. */
export function ToolResult({ result }: { result: ToolCallResult }) {
  const { content, structuredContent, isError, durationMs } = result;
  return (
    <section aria-label="Result" className={`result${isError ? ' result--error' : ''}`}>
      <header className="result__header">
        <span className="result__title">{isError ? 'The tool reported an error' : 'Result'}</span>
        <span className="result__meta">
          {plural(content.length, 'block')} · {formatDuration(durationMs)}
        </span>
      </header>
      <div className="result__blocks">
        {content.length === 0 && <p className="muted">The tool returned no content.</p>}
        {content.map((block, index) => (
          // Blocks have no identity of their own; the list is replaced whole.
          <ContentBlockView key={index} block={block} />
        ))}
      </div>
      {structuredContent !== undefined && (
        <Collapsible title="Structured content" className="result__structured">
          <pre className="code-block">{structuredContent}</pre>
        </Collapsible>
      )}
    </section>
  );
}
