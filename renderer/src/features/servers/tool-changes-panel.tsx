import { useEffect, useState } from 'react';
import type { ServerSnapshot } from '../../../../shared/model/server.js';
import type { ToolChange } from '../../../../shared/model/tool-pins.js';
import { ServerText } from '../../common/server-text.js';
import { DefinitionChange } from '../consent/definition-change.js';
import { useRules } from '../consent/rules-context.js';

/**
 * The server's tools whose definition changed since it was pinned, or that
 * appeared later, each with its diff and "Accept change". Until accepted, no
 * rule lets such a tool run without asking. Read again with every snapshot
 * of the server (its tool list may have changed).
 */
export function ToolChangesPanel({ server }: { server: ServerSnapshot }) {
  const { toolChanges, acceptToolChange } = useRules((s) => s.actions);
  const [changes, setChanges] = useState<readonly ToolChange[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const connected = server.status === 'connected';

  useEffect(() => {
    if (!connected) return;
    let current = true;
    void toolChanges(server.name).then((result) => {
      if (current && result.ok) setChanges(result.value);
    });
    return () => {
      current = false;
    };
  }, [server, connected, toolChanges]);

  if (!connected || changes.length === 0) return null;

  const accept = async (change: ToolChange): Promise<void> => {
    setBusy(true);
    const result = await acceptToolChange(server.name, change.tool, change.digest);
    setBusy(false);
    if (result.ok) {
      setChanges(result.value);
      setError(undefined);
    } else setError(result.error.message);
  };

  return (
    <section className="tool-changes server-card__section" aria-label="Changed tools">
      <h3 className="consent__label">
        {changes.length === 1 ? 'One tool changed' : `${String(changes.length)} tools changed`} since you
        approved this server: Claude asks before each call until you accept
      </h3>
      {changes.map((change) => (
        <div key={change.tool} className="tool-changes__item">
          <p className="tool-changes__tool">
            <code>
              <ServerText text={change.tool} />
            </code>
            <button
              type="button"
              className="btn"
              disabled={busy}
              onClick={() => {
                void accept(change);
              }}
            >
              Accept change
            </button>
          </p>
          <DefinitionChange change={change} />
        </div>
      ))}
      {error !== undefined && (
        <p className="inline-alert" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
