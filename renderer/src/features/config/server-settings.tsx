import { useId, useState } from 'react';
import type { ServerSnapshot } from '../../../../shared/model/server.js';
import { useHost } from '../../store/area-context.js';
import { Spinner } from '../../common/spinner.js';
import { ServerFormDialog } from './lazy.js';
import { Deferred } from '../../common/on-demand.js';
import { SandboxSwitch } from './sandbox-switch.js';

/** A server's settings: on/off, what it runs or reaches, and the edit form. */
export function ServerSettings({ server }: { server: ServerSnapshot }) {
  const id = useId();
  const host = useHost();
  const [editing, setEditing] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const enabled = server.status !== 'disabled';

  const toggle = async () => {
    setBusy(true);
    setError(undefined);
    const result = await host.setServerEnabled({ name: server.name, enabled: !enabled });
    setBusy(false);
    if (!result.ok) setError(result.error.message);
  };

  return (
    <section className="server-settings" aria-label="Settings">
      <div className="server-settings__row">
        <div>
          <p className="server-settings__title" id={`${id}-enabled`}>
            Enabled
          </p>
          <p className="muted server-settings__hint" id={`${id}-enabled-hint`}>
            A disabled server is stopped and is not started when the app starts.
          </p>
        </div>
        <label className="switch">
          <input
            type="checkbox"
            role="switch"
            className="switch__input"
            aria-labelledby={`${id}-enabled`}
            aria-describedby={`${id}-enabled-hint`}
            checked={enabled}
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
      <SandboxSwitch server={server} />
      <div className="server-settings__row">
        <div>
          <p className="server-settings__title">{server.transport === 'stdio' ? 'Command' : 'URL'}</p>
          <p className="mono server-settings__target">{server.target}</p>
        </div>
        <button
          type="button"
          className="btn"
          onClick={() => {
            setEditing(true);
          }}
        >
          Edit…
        </button>
      </div>
      <p className="muted server-settings__hint">
        Tools can be turned off one by one in the Tools tab; the model never sees a disabled tool.
      </p>
      {editing && (
        <Deferred>
          <ServerFormDialog
            editing={server.name}
            onClose={() => {
              setEditing(false);
            }}
          />
        </Deferred>
      )}
    </section>
  );
}
