import type { DocumentChatBlock } from '../../../../shared/model/chat.js';
import { formatFileSize } from '../../../../shared/model/attachment-files.js';

/** A PDF or text file that went with a user message, in the history; a text file opens to show it. */
export function AttachedFile({ block }: { block: DocumentChatBlock }) {
  const pdf = block.mimeType === 'application/pdf';
  return (
    <details className="sent-context attached-file">
      <summary>
        <span className="sent-context__kind">{pdf ? 'PDF' : 'File'}</span>
        <span className="sent-context__name">{block.name}</span>
        <span className="sent-context__meta">{formatFileSize(block.bytes)}</span>
      </summary>
      <div className="sent-context__body">
        {block.text !== undefined ? (
          <pre className="sent-context__text">{block.text}</pre>
        ) : (
          <p className="muted">A PDF of {formatFileSize(block.bytes)}, sent to Claude as a document.</p>
        )}
      </div>
    </details>
  );
}
