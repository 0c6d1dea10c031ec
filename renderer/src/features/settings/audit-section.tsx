import { useEffect } from 'react';
import type { AuditDecision, AuditEntry } from '../../../../shared/model/chat.js';
import type { RuleScope } from '../../../../shared/model/consent-rules.js';
import { useChat, useChatActions } from '../chat/chat-context.js';

const format = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'medium' });

const DECISION: Record<AuditDecision, string> = {
  allow_once: 'Allowed once',
  always_allow: 'Always allowed',
  policy_allow: 'Allowed by rule',
  deny: 'Denied',
  withdrawn: 'Withdrawn',
  allow_conversation: 'Allowed for the conversation',
  trust_server: 'Trusted the server',
  allow_read_only: 'Allowed read-only tools',
  user_call: 'Called by you',
  accept_change: 'Changed definition accepted',
  network_allow_once: 'Network allowed once',
  network_always_allow: 'Network always allowed',
  network_deny: 'Network denied',
  network_unanswered: 'Network denied (no answer)',
};

/** Which rule allowed a call, in a few words. */
const RULE: Record<RuleScope, string> = {
  conversation: 'This conversation',
  tool: 'This tool, always',
  server: 'Trusted server',
  'read-only': 'Read-only opt-in',
};

/** The "Rule / made by" cell: the rule that allowed a call, or that the person made the call. */
function ruleCell(entry: AuditEntry): string {
  if (entry.decision === 'user_call') return 'You, from the Servers view';
  if (entry.rule) return RULE[entry.rule.scope];
  return entry.decision === 'policy_allow' ? 'A rule' : '—';
}

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
        Each tool call Claude asked for, what was decided and which rule allowed it, and each call you made
        yourself from the Servers view, and each host a sandboxed server was allowed or denied (its host:port
        in the Tool column). The digest is the SHA-256 of the arguments.
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
                <th scope="col">Rule / made by</th>
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
                  <td>{ruleCell(entry)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
