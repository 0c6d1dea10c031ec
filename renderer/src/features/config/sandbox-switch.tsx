import { useState } from 'react';
import type { ServerSnapshot } from '../../../../shared/model/server.js';
import { useHost } from '../../store/area-context.js';
import { SettingSwitch } from '../../common/setting-switch.js';

/** The server runs unconfined because the person turned its sandbox off. */
export const runsUnconfined = (server: ServerSnapshot): boolean =>
  server.sandbox?.state === 'off' && server.sandbox.reason === 'turned off for this server';

/**
 * "Run without sandbox" for a local server, with a plain warning: it then
 * reads, writes and reaches everything the person can. A running server restarts.
 */
export function SandboxSwitch({ server }: { server: ServerSnapshot }) {
  const host = useHost();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  if (server.transport !== 'stdio') return null;
  const unconfined = runsUnconfined(server);

  const toggle = async () => {
    setBusy(true);
    setError(undefined);
    const result = await host.setServerSandboxed({ name: server.name, sandboxed: unconfined });
    setBusy(false);
    if (!result.ok) setError(result.error.message);
  };

  return (
    <SettingSwitch
      title="Run without sandbox"
      hint="Warning: without the sandbox this server can read your SSH keys, cloud credentials and browser profiles, change any of your files and reach any computer. Only for servers you trust."
      checked={unconfined}
      busy={busy}
      error={error}
      onChange={() => {
        void toggle();
      }}
    />
  );
}
