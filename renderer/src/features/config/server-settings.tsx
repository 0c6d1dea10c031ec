import { useState } from 'react';
import type { ServerSnapshot } from '../../../../shared/model/server.js';
import { useHost } from '../../store/area-context.js';
import { SettingSwitch } from '../../common/setting-switch.js';
import { ServerFormDialog } from './lazy.js';
import { Deferred } from '../../common/on-demand.js';
import { SandboxSwitch } from './sandbox-switch.js';
import { SandboxLists } from './sandbox-lists.js';

/** A server's settings: on/off, what it runs or reaches, and the edit form. */
export function ServerSettings({ server }: { server: ServerSnapshot }) {
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
      <SettingSwitch
        title="Enabled"
        hint="A disabled server is stopped and is not started when the app starts."
        checked={enabled}
        busy={busy}
        error={error}
        onChange={() => {
          void toggle();
        }}
      />
      <SandboxSwitch server={server} />
      <SandboxLists server={server} />
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
