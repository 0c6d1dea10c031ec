import { useState } from 'react';
import type { ServerSnapshot } from '../../../../shared/model/server.js';
import { serverRule } from '../consent/consent-rules.js';
import { useRules } from '../consent/rules-context.js';

/**
 * The server's own consent settings: whether it is trusted (all its tools
 * run without asking; revoke in one click) and the opt-in to run the tools
 * it marks read-only without asking, labelled as what it is: trusting the
 * server's claim. Both are rules the host binds to what the server runs now.
 */
export function ServerTrustPanel({ server }: { server: ServerSnapshot }) {
  const trusted = useRules((s) => serverRule(s.rules, server, 'server'));
  const readOnly = useRules((s) => serverRule(s.rules, server, 'read-only'));
  const problem = useRules((s) => s.problem);
  const { setServerTrust } = useRules((s) => s.actions);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  /** The opt-in as just switched, shown until the host answers (then the host's rules decide). */
  const [switching, setSwitching] = useState<boolean | undefined>(undefined);

  const change = async (scope: 'server' | 'read-only', enabled: boolean): Promise<void> => {
    setBusy(true);
    if (scope === 'read-only') setSwitching(enabled);
    const result = await setServerTrust(server.name, scope, enabled);
    setBusy(false);
    setSwitching(undefined);
    setError(result.ok ? undefined : result.error.message);
  };

  return (
    <section className="server-trust server-card__section" aria-label="Consent">
      <div className="server-trust__row">
        {trusted ? (
          <>
            <span className="badge badge--info">Trusted</span>
            <span className="server-trust__text">Claude runs all of this server’s tools without asking.</span>
            <button
              type="button"
              className="btn btn--danger-quiet"
              disabled={busy}
              onClick={() => {
                void change('server', false);
              }}
            >
              Revoke trust
            </button>
          </>
        ) : (
          <span className="server-trust__text muted">
            Not trusted: Claude asks before each tool call, unless you allowed that tool.
          </span>
        )}
      </div>
      <label className="server-trust__opt-in">
        <input
          type="checkbox"
          checked={switching ?? readOnly !== undefined}
          disabled={busy || (problem !== undefined && readOnly === undefined)}
          onChange={(event) => {
            void change('read-only', event.currentTarget.checked);
          }}
        />
        <span>
          Run tools this server marks read-only without asking
          <span className="field__hint server-trust__hint">
            This trusts the server’s own claim about its tools; the app cannot check it. Tools without the
            read-only mark still ask.
          </span>
        </span>
      </label>
      {error !== undefined && (
        <p className="inline-alert" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
