import type { CompactionChatBlock } from '../../../../shared/model/chat.js';

/** Where the API compacted the conversation: Claude reads the summary instead of what came before. */
export function CompactionNote({ block }: { block: CompactionChatBlock }) {
  return (
    <details className="sent-context compaction-note">
      <summary>
        <span className="sent-context__kind">Compacted</span>
        <span className="sent-context__meta">Claude reads this summary instead of the messages above it</span>
      </summary>
      <div className="sent-context__body">
        <pre className="sent-context__text">{block.summary ?? '(The API could not write a summary.)'}</pre>
      </div>
    </details>
  );
}
