import { useDeferredValue, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { checkConfigText } from '../../../../shared/model/config-text.js';
import type { ConfigIssue } from '../../../../shared/model/config-text.js';
import { useHost } from '../../store/area-context.js';
import { Modal } from '../../common/modal.js';
import { Spinner } from '../../common/spinner.js';

/**
 * The whole configuration file as JSON. Checked against the schema as the
 * person types (each issue with its key path and line); Ctrl/Cmd+S saves;
 * invalid text is never sent, and the host checks again before writing.
 * After a save the host reloads the file and reconnects the servers.
 */
export function RawConfigDialog({ onClose }: { onClose: () => void }) {
  const headingId = useId();
  const editorRef = useRef<HTMLTextAreaElement>(null);
  const host = useHost();
  const [path, setPath] = useState<string>();
  const [text, setText] = useState<string>();
  const [original, setOriginal] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [hostError, setHostError] = useState<string>();
  const [attempted, setAttempted] = useState(false);

  useEffect(() => {
    let live = true;
    void host.getRawConfig({}).then((result) => {
      if (!live) return;
      if (result.ok) {
        setPath(result.value.path);
        setText(result.value.text);
        setOriginal(result.value.text);
        editorRef.current?.focus();
      } else setHostError(result.error.message);
    });
    return () => {
      live = false;
    };
  }, [host]);

  const deferred = useDeferredValue(text);
  const check = useMemo(() => (deferred === undefined ? undefined : checkConfigText(deferred)), [deferred]);
  const issues = check && !check.ok ? check.issues : [];
  const dirty = text !== undefined && text !== original;

  const save = async () => {
    if (text === undefined || busy) return;
    setAttempted(true);
    // Checked on the current text, not the deferred one: invalid JSON is never sent.
    if (!checkConfigText(text).ok) return;
    setBusy(true);
    setHostError(undefined);
    const result = await host.saveRawConfig({ text });
    setBusy(false);
    if (result.ok) onClose();
    else setHostError(result.error.message);
  };

  const goTo = (issue: ConfigIssue) => {
    const editor = editorRef.current;
    if (!editor || text === undefined || issue.line === undefined) return;
    const lines = text.split('\n');
    const start = lines.slice(0, issue.line - 1).reduce((n, l) => n + l.length + 1, 0);
    const end = start + (lines[issue.line - 1]?.length ?? 0);
    editor.focus();
    editor.setSelectionRange(start, end);
    // Bring the line into view: roughly line height × line index.
    const lineHeight = parseFloat(getComputedStyle(editor).lineHeight) || 18;
    editor.scrollTop = Math.max(0, (issue.line - 3) * lineHeight);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key.toLowerCase() === 's' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void save();
    }
  };

  return (
    <Modal labelledBy={headingId} onClose={onClose} initialFocus={editorRef} className="modal--wide">
      <div className="modal__content" onKeyDown={onKeyDown}>
        <header className="modal__header">
          <h2 id={headingId}>Configuration file</h2>
          <p className="modal__subtitle mono">{path ?? 'Loading…'}</p>
        </header>
        <div className="modal__body raw-config">
          {text === undefined && !hostError && (
            <p className="muted" role="status">
              <Spinner /> Reading the file…
            </p>
          )}
          {text !== undefined && (
            <textarea
              ref={editorRef}
              className="field__control mono raw-config__editor"
              aria-label="Configuration JSON"
              aria-invalid={issues.length > 0 ? true : undefined}
              aria-describedby={`${headingId}-issues`}
              spellCheck={false}
              autoComplete="off"
              wrap="off"
              value={text}
              onChange={(event) => {
                setText(event.target.value);
              }}
            />
          )}
          <div id={`${headingId}-issues`} className="raw-config__issues" aria-live="polite">
            {check?.ok === true && <p className="raw-config__ok">Valid configuration.</p>}
            {issues.length > 0 && (
              <>
                <p className={attempted ? 'field__error' : 'muted'}>
                  {issues.length === 1 ? '1 problem' : `${String(issues.length)} problems`} — fix{' '}
                  {issues.length === 1 ? 'it' : 'them'} to save.
                </p>
                <ul className="raw-config__issue-list" aria-label="Problems">
                  {issues.map((issue, index) => (
                    <li key={`${issue.path}-${String(index)}`}>
                      <button
                        type="button"
                        className="raw-config__issue"
                        disabled={issue.line === undefined}
                        onClick={() => {
                          goTo(issue);
                        }}
                      >
                        {issue.line !== undefined && (
                          <span className="raw-config__line">Line {issue.line}</span>
                        )}
                        {issue.path !== '' && <span className="mono">{issue.path}</span>}
                        <span>{issue.message}</span>
                      </button>
                    </li>
                  ))}
                </ul>
              </>
            )}
          </div>
          {hostError !== undefined && (
            <div className="inline-alert" role="alert">
              <strong>Not saved.</strong> {hostError}
            </div>
          )}
        </div>
        <footer className="modal__footer">
          <span className="muted modal__footnote">
            Saving reloads the file and reconnects the servers. <kbd>Ctrl</kbd>/<kbd>⌘</kbd>+<kbd>S</kbd>
          </span>
          <button type="button" className="btn" onClick={onClose}>
            {dirty ? 'Discard' : 'Close'}
          </button>
          <button
            type="button"
            className="btn btn--primary"
            disabled={busy || text === undefined || issues.length > 0 || !dirty}
            onClick={() => {
              void save();
            }}
          >
            {busy && <Spinner />}
            Save
          </button>
        </footer>
      </div>
    </Modal>
  );
}
