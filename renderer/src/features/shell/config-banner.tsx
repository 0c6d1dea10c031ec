import { useState } from 'react';
import type { HostErrorValue } from '../../../../shared/ipc/result.js';
import { useActions, useAppState } from '../../store/store-context.js';
import { Spinner } from '../../common/spinner.js';

/** The configuration file is broken: say so, say where, and offer to read it again once fixed. */
export function ConfigBanner() {
  const configState = useAppState((s) => s.configState);
  const { reloadConfig } = useActions();
  const [reloading, setReloading] = useState(false);
  const [reloadError, setReloadError] = useState<HostErrorValue>();
  if (configState?.error === undefined) return null;
  // The host's message may start with the path, which the banner shows on its own line.
  const prefix = `${configState.path}: `;
  const error = configState.error.startsWith(prefix)
    ? configState.error.slice(prefix.length)
    : configState.error;

  const reload = async () => {
    setReloading(true);
    const result = await reloadConfig();
    setReloading(false);
    setReloadError(result.ok ? undefined : result.error);
  };

  return (
    <div className="banner banner--danger" role="alert">
      <span className="banner__icon" aria-hidden="true">
        !
      </span>
      <div className="banner__text">
        <strong>Your configuration file could not be loaded</strong>
        <span className="banner__detail">{error}</span>
        <code className="banner__path">{configState.path}</code>
        <span className="banner__detail">
          Servers keep running, but changes are not saved until the file is fixed.
          {reloadError && ` Reload failed: ${reloadError.message}`}
        </span>
      </div>
      <button
        type="button"
        className="btn"
        disabled={reloading}
        onClick={() => {
          void reload();
        }}
      >
        {reloading && <Spinner />}
        Reload
      </button>
    </div>
  );
}
