import type { ToolSearchChatBlock } from '../../../../shared/model/chat.js';
import { ServerText } from '../../common/server-text.js';

/** A tool search Claude ran: what it looked for and which tools it loaded. */
export function ToolSearchNote({ block }: { block: ToolSearchChatBlock }) {
  const query = searchQuery(block.inputJson);
  return (
    <div className="tool-search-note" role="note">
      <svg className="tool-search-note__icon" viewBox="0 0 16 16" width="13" height="13" aria-hidden="true">
        <circle cx="7" cy="7" r="4.5" fill="none" stroke="currentColor" strokeWidth="1.8" />
        <path d="M10.4 10.4 14 14" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
      </svg>
      <span>
        Searched the tools{query !== '' ? <> for “{query}”</> : null}
        {block.error !== undefined ? (
          <> — the search failed ({block.error}).</>
        ) : block.found.length === 0 ? (
          <> — nothing matched.</>
        ) : (
          <>
            {' '}
            — loaded{' '}
            {block.found.map((f, i) => (
              <span key={`${f.server}/${f.tool}`}>
                {i > 0 ? ', ' : ''}
                <span className="mono">
                  <ServerText text={f.tool} />
                </span>{' '}
                <span className="tool-search-note__server">on {f.server}</span>
              </span>
            ))}
          </>
        )}
      </span>
    </div>
  );
}

function searchQuery(inputJson: string): string {
  try {
    const input: unknown = JSON.parse(inputJson);
    if (typeof input === 'object' && input !== null && 'query' in input && typeof input.query === 'string') {
      return input.query;
    }
  } catch {
    // Not JSON: show no query.
  }
  return '';
}
