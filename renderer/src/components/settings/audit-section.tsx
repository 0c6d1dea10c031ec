import { useEffect } from 'react';
import type { AuditDecision } from '../../../../shared/model/chat.js';
import { useChat, useChatActions } from '../../store/chat-context.js';

const format = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'medium' });

const DECISION: Record<AuditDecision, string> = {
  allow_once: 'Allowed once',
  always_allow: 'Always allowed',
  policy_allow: 'Allowed by rule',
  deny: 'Denied',
  withdrawn: 'Withdrawn',
};

/** Every consent decision on a tool call, newest first. */
export function AuditSection() {
  const audit = useChat((s) => s.audit);
  const { loadAudit } = useChatActions();
  useEffect(() => {
    void loadAudit();
  }, [loadAudit]);

  return (
    <section className="card settings-card" aria-labelledby="audit-title">
      <div className="settings-card__heading">
        <h2 id="audit-title">Audit trail</h2>
        <button
          type="button"
          className="btn"
          onClick={() => {
            void loadAudit();
          }}
        >
          Refresh
        </button>
      </div>
      <p className="field__hint">
        Each tool call Claude asked for and what was decided. The digest is the SHA-256 of the arguments.
      </p>
      {audit === undefined ? (
        <p className="muted">Loading…</p>
      ) : audit.length === 0 ? (
        <p className="muted">No tool calls yet.</p>
      ) : (
        <div className="audit-table__wrap">
          <table className="audit-table" aria-labelledby="audit-title">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Server</th>
                <th scope="col">Tool</th>
                <th scope="col">Arguments digest</th>
                <th scope="col">Decision</th>
              </tr>
            </thead>
            <tbody>
              {audit.map((entry) => (
                <tr key={entry.id}>
                  <td>{format.format(entry.time)}</td>
                  <td>{entry.server}</td>
                  <td>
                    <code>{entry.tool}</code>
                  </td>
                  <td>
                    <code title={entry.argumentsDigest}>{entry.argumentsDigest.slice(0, 12)}…</code>
                  </td>
                  <td className={`audit-table__decision audit-table__decision--${entry.decision}`}>
                    {DECISION[entry.decision]}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
