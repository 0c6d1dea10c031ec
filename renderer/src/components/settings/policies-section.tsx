import { useEffect } from 'react';
import { useChat, useChatActions } from '../../store/chat-context.js';

const format = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The "always allow this tool on this server" rules, each revocable. */
export function PoliciesSection() {
  const policies = useChat((s) => s.policies);
  const { loadPolicies, revokePolicy } = useChatActions();
  useEffect(() => {
    void loadPolicies();
  }, [loadPolicies]);

  return (
    <section className="card settings-card" aria-labelledby="policies-title">
      <h2 id="policies-title">Always-allowed tools</h2>
      <p className="field__hint">
        Tools you chose “Always allow” for run without asking. Revoke a rule to be asked again.
      </p>
      {policies === undefined ? (
        <p className="muted">Loading…</p>
      ) : policies.length === 0 ? (
        <p className="muted">No rules: every tool call asks first.</p>
      ) : (
        <ul className="policy-list" aria-label="Always-allowed tools">
          {policies.map((policy) => (
            <li key={policy.id} className="policy-list__item">
              <span>
                <code>{policy.tool}</code> on <strong>{policy.server}</strong>
              </span>
              <span className="muted">since {format.format(policy.createdAt)}</span>
              <button
                type="button"
                className="btn btn--danger-quiet"
                aria-label={`Revoke ${policy.tool} on ${policy.server}`}
                onClick={() => {
                  void revokePolicy(policy.id);
                }}
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
