import { useEffect, useId, useState } from 'react';
import type { ServerSnapshot } from '../../../../shared/model/server.js';
import type { HostErrorValue } from '../../../../shared/ipc/result.js';
import { rootsOf } from './features-store.js';
import { useFeatureActions, useFeatures } from './features-context.js';
import { useAppState } from '../../store/store-context.js';
import { HostErrorLine } from './resource-contents.js';
import { LoadingLine } from './states.js';

/**
 * The folders this server may see (MCP roots): none by default. In the
 * desktop app a folder is chosen with the system picker; in a browser
 * (headless shell) there is no picker, so the absolute path is typed and the
 * host checks it (absolute, exists, is a folder) before storing it as a
 * file:// URI. The server is told at once (roots/list_changed).
 */
export function RootsTab({ server }: { server: ServerSnapshot }) {
  const id = useId();
  const roots = useFeatures((s) => rootsOf(s, server.name));
  const { loadRoots, addRoot, pickRoot, removeRoot } = useFeatureActions();
  const desktop = useAppState((s) => s.appInfo?.shell === 'electron');
  const [path, setPath] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<HostErrorValue | undefined>();

  useEffect(() => {
    void loadRoots(server.name);
  }, [server.name, loadRoots]);

  const run = async (action: () => Promise<HostErrorValue | undefined>) => {
    setBusy(true);
    const failure = await action();
    setBusy(false);
    setError(failure);
    return failure;
  };

  return (
    <div className="card tool-panel roots">
      <header className="tool-panel__header">
        <h3 className="tool-panel__heading">Roots</h3>
      </header>
      <p className="tool-panel__description">
        Folders this server may work in. It sees none unless you add them here; it is told at once when they
        change.
      </p>
      {roots.loading && roots.roots.length === 0 && <LoadingLine text="Loading roots…" />}
      {roots.error && <HostErrorLine error={roots.error} />}
      {!roots.loading && roots.roots.length === 0 && !roots.error && (
        <p className="muted">No folders yet: this server sees no roots.</p>
      )}
      {roots.roots.length > 0 && (
        <ul className="roots__list" aria-label="Roots">
          {roots.roots.map((root) => (
            <li key={root.uri} className="roots__item">
              <span className="roots__name">{root.name}</span>
              <code className="resource-card__uri" title={root.uri}>
                {root.path}
              </code>
              <button
                type="button"
                className="btn btn--danger-quiet"
                aria-label={`Remove ${root.path}`}
                disabled={busy}
                onClick={() => {
                  void run(() => removeRoot(server.name, root.uri));
                }}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        className="roots__add"
        onSubmit={(event) => {
          event.preventDefault();
          void run(() => addRoot(server.name, path)).then((failure) => {
            if (!failure) setPath('');
          });
        }}
      >
        <label htmlFor={id} className="field__label">
          Folder path
        </label>
        <div className="roots__row">
          <input
            id={id}
            className="field__control mono"
            placeholder="/absolute/path/to/folder"
            value={path}
            spellCheck={false}
            aria-describedby={`${id}-hint`}
            onChange={(event) => {
              setPath(event.target.value);
            }}
          />
          <button type="submit" className="btn btn--primary" disabled={busy || path.trim() === ''}>
            Add folder
          </button>
          {desktop && (
            <button
              type="button"
              className="btn"
              disabled={busy}
              onClick={() => {
                void run(async () => {
                  const result = await pickRoot(server.name);
                  return result.ok ? undefined : result.error;
                });
              }}
            >
              Choose folder…
            </button>
          )}
        </div>
        <span id={`${id}-hint`} className="field__hint">
          {desktop
            ? 'Type an absolute path, or choose a folder.'
            : 'An absolute path of an existing folder on the machine running the host (no folder picker in the browser).'}
        </span>
      </form>
      {error && <HostErrorLine error={error} />}
    </div>
  );
}
