import { useId, useState } from 'react';
import { LOG_LEVELS } from '../../../../shared/model/logs.js';
import type { LogLevel } from '../../../../shared/model/logs.js';
import type { ServerSnapshot } from '../../../../shared/model/server.js';
import { useLogs } from './logs-context.js';

/**
 * logging/setLevel for servers that declared the `logging` capability; for
 * the others the picker is disabled and says why.
 */
export function LogLevelPicker({ server, level }: { server: ServerSnapshot; level: LogLevel | undefined }) {
  const id = useId();
  const { setLevel } = useLogs((s) => s.actions);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const connected = server.status === 'connected';
  const supported = server.capabilities.logging;
  const why = !connected
    ? 'Available while the server is connected.'
    : !supported
      ? 'This server does not support setting a log level (no logging capability).'
      : undefined;

  return (
    <div className="logs__server-level">
      <label htmlFor={id} className="field__label">
        Server log level
      </label>
      <select
        id={id}
        className="field__control"
        disabled={why !== undefined || busy}
        aria-describedby={why !== undefined || error !== undefined ? `${id}-why` : undefined}
        value={level ?? ''}
        onChange={(event) => {
          const next = LOG_LEVELS.find((l) => l === event.target.value);
          if (!next) return;
          setBusy(true);
          setError(undefined);
          void setLevel(server.name, next).then((result) => {
            setBusy(false);
            if (!result.ok) setError(result.error.message);
          });
        }}
      >
        <option value="" disabled>
          Server default
        </option>
        {LOG_LEVELS.map((l) => (
          <option key={l} value={l}>
            {l}
          </option>
        ))}
      </select>
      {(why !== undefined || error !== undefined) && (
        <p id={`${id}-why`} className={error !== undefined ? 'field__error' : 'field__hint'}>
          {error ?? why}
        </p>
      )}
    </div>
  );
}
