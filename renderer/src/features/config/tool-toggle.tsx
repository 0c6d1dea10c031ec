import { useState } from 'react';
import type { ToolInfo } from '../../../../shared/model/server.js';
import { useHost } from '../../store/area-context.js';
import { useHostReachable } from '../../store/store-context.js';

/**
 * Turns one tool on or off (`disabledTools` in the config). A disabled tool
 * is never offered to the model and the host refuses to call it.
 */
export function ToolToggle({ server, tool }: { server: string; tool: ToolInfo }) {
  const host = useHost();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const enabled = tool.disabled !== true;
  const reachable = useHostReachable();

  return (
    <label className="switch tool-toggle" title={error ?? (enabled ? 'Enabled' : 'Disabled')}>
      <input
        type="checkbox"
        role="switch"
        className="switch__input"
        aria-label={`${tool.name} enabled`}
        aria-invalid={error !== undefined ? true : undefined}
        checked={enabled}
        disabled={busy || !reachable}
        onChange={() => {
          setBusy(true);
          setError(undefined);
          void host.setToolEnabled({ name: server, tool: tool.name, enabled: !enabled }).then((result) => {
            setBusy(false);
            if (!result.ok) setError(result.error.message);
          });
        }}
      />
      <span className="switch__track" aria-hidden="true" />
    </label>
  );
}
