import { useId, useState } from 'react';
import type { ConversationSummary } from '../../../../shared/model/chat.js';
import { useChatActions } from './chat-context.js';
import { Modal } from '../../common/modal.js';
import { Spinner } from '../../common/spinner.js';

/**
 * Exports the conversation (the branch shown) as Markdown or JSON into a
 * folder on the computer that runs the app; an empty folder means the
 * Downloads folder. Says where the file went, or in one line why it could
 * not be written.
 */
export function ExportDialog({ summary, onClose }: { summary: ConversationSummary; onClose: () => void }) {
  const titleId = useId();
  const folderId = useId();
  const hintId = useId();
  const { exportConversation } = useChatActions();
  const [format, setFormat] = useState<'markdown' | 'json'>('markdown');
  const [folder, setFolder] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string }>();

  const run = () => {
    setBusy(true);
    setOutcome(undefined);
    void exportConversation(summary.id, format, folder.trim()).then((result) => {
      setBusy(false);
      setOutcome(
        result.ok
          ? { ok: true, text: `Saved to ${result.value.path}` }
          : { ok: false, text: result.error.message },
      );
    });
  };

  return (
    <Modal labelledBy={titleId} onClose={onClose}>
      <form
        className="modal__content"
        onSubmit={(event) => {
          event.preventDefault();
          run();
        }}
      >
        <header className="modal__header">
          <h2 id={titleId}>Export conversation</h2>
          <p className="modal__subtitle">{summary.title || 'Untitled'}</p>
        </header>
        <div className="modal__body export-dialog">
          <fieldset className="export-dialog__formats">
            <legend className="field__label">Format</legend>
            <label className="conv-settings__check">
              <input
                type="radio"
                name="format"
                checked={format === 'markdown'}
                onChange={() => {
                  setFormat('markdown');
                }}
              />
              Markdown <span className="muted">— to read or share</span>
            </label>
            <label className="conv-settings__check">
              <input
                type="radio"
                name="format"
                checked={format === 'json'}
                onChange={() => {
                  setFormat('json');
                }}
              />
              JSON <span className="muted">— everything, to keep</span>
            </label>
          </fieldset>
          <div className="field">
            <label htmlFor={folderId} className="field__label">
              Folder
            </label>
            <input
              id={folderId}
              className="field__control mono"
              spellCheck={false}
              placeholder="Your Downloads folder"
              aria-describedby={hintId}
              value={folder}
              onChange={(event) => {
                setFolder(event.target.value);
              }}
            />
            <p id={hintId} className="field__hint">
              An absolute path on the computer that runs the app. Leave it empty for your Downloads folder.
            </p>
          </div>
          {outcome && (
            <div
              className={outcome.ok ? 'export-dialog__done' : 'inline-alert'}
              role={outcome.ok ? 'status' : 'alert'}
            >
              {outcome.text}
            </div>
          )}
        </div>
        <footer className="modal__footer">
          <button type="button" className="btn" onClick={onClose}>
            {outcome?.ok === true ? 'Close' : 'Cancel'}
          </button>
          <button type="submit" className="btn btn--primary" disabled={busy}>
            {busy && <Spinner />}
            Export
          </button>
        </footer>
      </form>
    </Modal>
  );
}
