import { formatFileSize } from '../../../../shared/model/attachment-files.js';
import type { PendingFile } from './read-files.js';

const KIND_LABEL = { image: 'Image', pdf: 'PDF', text: 'Text' } as const;

/** The files going with the next message: a thumbnail or kind, the name and size, and × to remove. */
export function FileChips({
  files,
  onRemove,
}: {
  files: readonly PendingFile[];
  onRemove: (id: string) => void;
}) {
  if (files.length === 0) return null;
  return (
    <ul className="context-chips" aria-label="Files for your next message">
      {files.map((file) => (
        <li
          key={file.id}
          className="context-chip file-chip"
          title={`${file.name} · ${formatFileSize(file.size)}`}
        >
          {file.preview !== undefined ? (
            <img className="file-chip__thumb" src={file.preview} alt="" />
          ) : (
            <span className={`file-chip__kind file-chip__kind--${file.kind}`} aria-hidden="true">
              {KIND_LABEL[file.kind]}
            </span>
          )}
          <span className="context-chip__label">
            <span>{file.name}</span>
            <span className="context-chip__meta">{formatFileSize(file.size)}</span>
          </span>
          <button
            type="button"
            className="context-chip__remove"
            aria-label={`Remove ${file.name}`}
            onClick={() => {
              onRemove(file.id);
            }}
          >
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
