import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type {
  ImportLocation,
  ImportPreview,
  ImportResult,
  ImportSource,
} from '../../../../shared/model/import.js';
import { initialRows, planImport } from './import-plan.js';
import type { ImportRow } from './import-plan.js';
import { useHost } from '../../store/area-context.js';
import { useAppState } from '../../store/store-context.js';
import { Modal } from '../../common/modal.js';
import { Spinner } from '../../common/spinner.js';
import { ImportPreviewTable } from './import-preview-table.js';

type Step =
  { kind: 'source' } | { kind: 'preview'; preview: ImportPreview } | { kind: 'done'; result: ImportResult };

/**
 * Import servers from Claude Desktop, VS Code or Cursor (files the host
 * finds in their known places) or from pasted JSON. Shows exactly what will
 * be imported — names, commands or URLs, env and header names, conflicts —
 * and asks for VS Code input values before anything is written.
 */
export function ImportDialog({ onClose }: { onClose: () => void }) {
  const headingId = useId();
  const firstRef = useRef<HTMLInputElement>(null);
  const host = useHost();
  const existing = useAppState((s) => s.serverNames);
  const [locations, setLocations] = useState<ImportLocation[]>();
  const [source, setSource] = useState<ImportSource>('pasted');
  const [pasted, setPasted] = useState('');
  const [step, setStep] = useState<Step>({ kind: 'source' });
  const [rows, setRows] = useState<ImportRow[]>([]);
  const [inputs, setInputs] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [attempted, setAttempted] = useState(false);

  useEffect(() => {
    let live = true;
    void host.listImportLocations({}).then((result) => {
      if (!live) return;
      if (result.ok) {
        setLocations(result.value);
        const found = result.value.find((l) => l.found);
        if (found) setSource(found.source);
      } else setError(result.error.message);
    });
    return () => {
      live = false;
    };
  }, [host]);

  const preview = step.kind === 'preview' ? step.preview : undefined;
  const plan = useMemo(
    () => (preview ? planImport(preview, rows, existing, inputs) : undefined),
    [preview, rows, existing, inputs],
  );

  const showPreview = async () => {
    setBusy(true);
    setError(undefined);
    const result = await host.previewImport(source === 'pasted' ? { source, text: pasted } : { source });
    setBusy(false);
    if (!result.ok) {
      setError(result.error.message);
      return;
    }
    setRows(initialRows(result.value));
    setInputs(Object.fromEntries(result.value.inputs.map((i) => [i.id, i.default ?? ''])));
    setAttempted(false);
    setStep({ kind: 'preview', preview: result.value });
  };

  const runImport = async () => {
    setAttempted(true);
    if (!preview || !plan || plan.count === 0) return;
    if (Object.keys(plan.rowErrors).length > 0 || plan.missingInputs.length > 0) return;
    setBusy(true);
    setError(undefined);
    const used = new Set(
      preview.servers
        .filter((s) => plan.choices.some((c) => c.name === s.name && c.action === 'import'))
        .flatMap((s) => s.inputIds),
    );
    const result = await host.importServers({
      source: preview.source,
      ...(preview.source === 'pasted' ? { text: pasted } : {}),
      choices: plan.choices,
      inputs: Object.fromEntries(Object.entries(inputs).filter(([id]) => used.has(id))),
    });
    setBusy(false);
    if (result.ok) setStep({ kind: 'done', result: result.value });
    else setError(result.error.message);
  };

  return (
    <Modal labelledBy={headingId} onClose={onClose} initialFocus={firstRef} className="modal--wide">
      <div className="modal__content">
        <header className="modal__header">
          <h2 id={headingId}>Import servers</h2>
          <p className="modal__subtitle">
            {step.kind === 'source' && 'From another MCP host on this computer, or from JSON you paste.'}
            {step.kind === 'preview' &&
              `From ${preview?.path ?? 'pasted JSON'}. Nothing is written until you import.`}
            {step.kind === 'done' && 'Done.'}
          </p>
        </header>

        <div className="modal__body">
          {step.kind === 'source' && (
            <fieldset className="import-sources">
              <legend className="field__label">Source</legend>
              {locations === undefined && !error && (
                <p className="muted" role="status">
                  <Spinner /> Looking for Claude Desktop, VS Code and Cursor…
                </p>
              )}
              {locations?.map((location) => (
                <label
                  key={location.source}
                  className={`import-source${location.found ? '' : ' import-source--missing'}`}
                >
                  <input
                    type="radio"
                    name="import-source"
                    checked={source === location.source}
                    disabled={!location.found}
                    onChange={() => {
                      setSource(location.source);
                    }}
                  />
                  <span className="import-source__label">{location.label}</span>
                  <span className="mono import-source__path">{location.path}</span>
                  <span className={`tag${location.found ? '' : ' tag--muted'}`}>
                    {location.found ? 'Found' : 'Not found'}
                  </span>
                </label>
              ))}
              <label className="import-source">
                <input
                  ref={firstRef}
                  type="radio"
                  name="import-source"
                  checked={source === 'pasted'}
                  onChange={() => {
                    setSource('pasted');
                  }}
                />
                <span className="import-source__label">Paste JSON</span>
                <span className="muted import-source__path">
                  An mcpServers object (Claude Desktop, Cursor) or a VS Code mcp.json
                </span>
              </label>
              {source === 'pasted' && (
                <textarea
                  className="field__control mono import-paste"
                  aria-label="Pasted configuration"
                  placeholder={
                    '{\n  "mcpServers": {\n    "name": { "command": "npx", "args": ["-y", "package"] }\n  }\n}'
                  }
                  spellCheck={false}
                  rows={8}
                  value={pasted}
                  onChange={(event) => {
                    setPasted(event.target.value);
                  }}
                />
              )}
            </fieldset>
          )}

          {step.kind === 'preview' && preview && plan && (
            <ImportPreviewTable
              preview={preview}
              rows={rows}
              plan={plan}
              inputs={inputs}
              showErrors={attempted}
              onRows={setRows}
              onInputs={setInputs}
            />
          )}

          {step.kind === 'done' && (
            <div role="status" className="import-done">
              {step.result.imported.length > 0 ? (
                <p>
                  Imported{' '}
                  {step.result.imported.length === 1
                    ? 'one server'
                    : `${String(step.result.imported.length)} servers`}
                  : <strong>{step.result.imported.join(', ')}</strong>. They are starting now.
                </p>
              ) : (
                <p>No server was imported.</p>
              )}
              {step.result.declined.length > 0 && (
                <p className="muted">
                  Not imported because starting them was not allowed: {step.result.declined.join(', ')}.
                </p>
              )}
            </div>
          )}

          {error !== undefined && (
            <div className="inline-alert" role="alert">
              {error}
            </div>
          )}
        </div>

        <footer className="modal__footer">
          {step.kind === 'preview' && (
            <button
              type="button"
              className="btn"
              onClick={() => {
                setError(undefined);
                setStep({ kind: 'source' });
              }}
            >
              Back
            </button>
          )}
          <button type="button" className="btn" onClick={onClose}>
            {step.kind === 'done' ? 'Close' : 'Cancel'}
          </button>
          {step.kind === 'source' && (
            <button
              type="button"
              className="btn btn--primary"
              disabled={busy || (source === 'pasted' && pasted.trim() === '')}
              onClick={() => {
                void showPreview();
              }}
            >
              {busy && <Spinner />}
              Preview
            </button>
          )}
          {step.kind === 'preview' && plan && (
            <button
              type="button"
              className="btn btn--primary"
              disabled={busy || plan.count === 0}
              onClick={() => {
                void runImport();
              }}
            >
              {busy && <Spinner />}
              {plan.count === 1 ? 'Import 1 server' : `Import ${String(plan.count)} servers`}
            </button>
          )}
        </footer>
      </div>
    </Modal>
  );
}
