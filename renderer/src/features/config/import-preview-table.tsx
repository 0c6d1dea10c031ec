import { useId } from 'react';
import type { ImportPreview } from '../../../../shared/model/import.js';
import type { ImportPlan, ImportRow } from './import-plan.js';

interface Props {
  preview: ImportPreview;
  rows: readonly ImportRow[];
  plan: ImportPlan;
  inputs: Readonly<Record<string, string>>;
  /** Show every problem (after an import attempt), not only name conflicts. */
  showErrors: boolean;
  onRows: (rows: ImportRow[]) => void;
  onInputs: (inputs: Record<string, string>) => void;
}

/** Exactly what will be imported: one row per server, with rename/skip, then the inputs it needs. */
export function ImportPreviewTable({ preview, rows, plan, inputs, showErrors, onRows, onInputs }: Props) {
  const id = useId();
  const patch = (name: string, change: Partial<ImportRow>) => {
    onRows(rows.map((r) => (r.name === name ? { ...r, ...change } : r)));
  };
  const needed = new Set(
    preview.servers
      .filter((s) => rows.some((r) => r.name === s.name && r.include))
      .flatMap((s) => s.inputIds),
  );

  if (preview.servers.length === 0) return <p className="muted">This file has no servers.</p>;

  return (
    <>
      <ul className="import-list" aria-label="Servers to import">
        {preview.servers.map((server) => {
          const row = rows.find((r) => r.name === server.name);
          if (!row) return null;
          const rowError = row.include ? plan.rowErrors[server.name] : undefined;
          const errorId = `${id}-${server.name}-error`;
          return (
            <li key={server.name} className={`import-row${row.include ? '' : ' import-row--skipped'}`}>
              <label className="import-row__include">
                <input
                  type="checkbox"
                  aria-label={`Import ${server.name}`}
                  checked={row.include}
                  disabled={server.problem !== undefined}
                  onChange={(event) => {
                    patch(server.name, { include: event.target.checked });
                  }}
                />
              </label>
              <div className="import-row__main">
                <div className="import-row__title">
                  <strong className="mono">{server.name}</strong>
                  <span className="tag">{server.transport === 'stdio' ? 'local' : 'remote'}</span>
                  {server.conflict && <span className="badge badge--danger">Name exists</span>}
                </div>
                {server.problem !== undefined ? (
                  <p className="field__error">Cannot be imported: {server.problem}</p>
                ) : (
                  <p className="mono import-row__target">{server.target}</p>
                )}
                {server.sentVariables.length > 0 && (
                  <p className="import-row__names import-row__sent" role="note">
                    Sends the values of your environment variables{' '}
                    <span className="mono">{server.sentVariables.join(', ')}</span> to{' '}
                    <span className="mono">{hostOf(server.target)}</span>
                  </p>
                )}
                {server.envNames.length > 0 && (
                  <p className="muted import-row__names">Environment: {server.envNames.join(', ')}</p>
                )}
                {server.headerNames.length > 0 && (
                  <p className="muted import-row__names">Headers: {server.headerNames.join(', ')}</p>
                )}
                {row.include && (
                  <div className="import-row__rename">
                    <label htmlFor={`${id}-${server.name}-as`} className="field__label">
                      Import as
                    </label>
                    <input
                      id={`${id}-${server.name}-as`}
                      className="field__control mono"
                      value={row.as}
                      aria-invalid={rowError !== undefined ? true : undefined}
                      aria-describedby={rowError !== undefined ? errorId : undefined}
                      onChange={(event) => {
                        patch(server.name, { as: event.target.value });
                      }}
                    />
                    {rowError !== undefined && (
                      <p id={errorId} className="field__error">
                        {rowError}
                      </p>
                    )}
                  </div>
                )}
              </div>
            </li>
          );
        })}
      </ul>

      {preview.inputs.some((input) => needed.has(input.id)) && (
        <fieldset className="import-inputs">
          <legend className="field__label">Values for the placeholders</legend>
          <p className="field__hint">
            These servers use VS Code inputs (<code>{'${input:…}'}</code>). The values are written into the
            configuration file.
          </p>
          {preview.inputs
            .filter((input) => needed.has(input.id))
            .map((input) => {
              const missing = showErrors && plan.missingInputs.includes(input.id);
              return (
                <div key={input.id} className={`field${missing ? ' field--invalid' : ''}`}>
                  <label htmlFor={`${id}-input-${input.id}`} className="field__label">
                    {input.description ?? input.id}
                  </label>
                  <input
                    id={`${id}-input-${input.id}`}
                    className="field__control"
                    type={input.password ? 'password' : 'text'}
                    autoComplete="off"
                    aria-invalid={missing ? true : undefined}
                    value={inputs[input.id] ?? ''}
                    onChange={(event) => {
                      onInputs({ ...inputs, [input.id]: event.target.value });
                    }}
                  />
                  <p className="field__hint mono">{`\${input:${input.id}}`}</p>
                  {missing && <p className="field__error">A value is needed</p>}
                </div>
              );
            })}
        </fieldset>
      )}
    </>
  );
}

/** "host:port" of a URL, or the URL as written when `${env:…}` keeps it from parsing. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
