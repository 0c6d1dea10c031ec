import { useId, useState } from 'react';
import type { ServerSnapshot } from '../../../../shared/model/server.js';
import { useHost } from '../../store/area-context.js';
import { Spinner } from '../../common/spinner.js';

/**
 * "Run without sandbox" for a local server, with a plain warning: it then
 * reads, writes and reaches everything the person can. A running server restarts.
 */
export function SandboxSwitch({ server }: { server: ServerSnapshot }) {
  const id = useId();
  const host = useHost();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  if (server.transport !== 'stdio') return null;
  const unconfined =
    server.sandbox?.state === 'off' && server.sandbox.reason === 'turned off for this server';

  const toggle = async () => {
    setBusy(true);
    setError(undefined);
    const result = await host.setServerSandboxed({ name: server.name, sandboxed: unconfined });
    setBusy(false);
    if (!result.ok) setError(result.error.message);
  };

  return (
    <>
      <div className="server-settings__row">
        <div>
          <p className="server-settings__title" id={`${id}-unconfined`}>
            Run without sandbox
          </p>
          <p className="muted server-settings__hint" id={`${id}-unconfined-hint`}>
            Warning: without the sandbox this server can read your SSH keys, cloud credentials and browser
            profiles, change any of your files and reach any computer. Only for servers you trust.
          </p>
        </div>
        <label className="switch">
          <input
            type="checkbox"
            role="switch"
            className="switch__input"
            aria-labelledby={`${id}-unconfined`}
            aria-describedby={`${id}-unconfined-hint`}
            checked={unconfined}
            disabled={busy}
            onChange={() => {
              void toggle();
            }}
          />
          <span className="switch__track" aria-hidden="true" />
        </label>
        {busy && <Spinner />}
      </div>
      {error !== undefined && (
        <div className="inline-alert" role="alert">
          {error}
        </div>
      )}
    </>
  );
}
