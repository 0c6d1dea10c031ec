import type { ServerSnapshot } from '../../../../shared/model/server.js';
import { serverRule } from '../consent/consent-rules.js';
import { useRules } from '../consent/rules-context.js';

/**
 * "Trusted" beside a server whose tools all run without asking: a "Trust
 * this server" rule bound to what the server runs now. Gone as soon as the
 * rule is revoked or the server is changed to run something else.
 */
export function TrustBadge({ server }: { server: ServerSnapshot }) {
  const trusted = useRules((s) => serverRule(s.rules, server, 'server') !== undefined);
  if (!trusted) return null;
  return (
    <span className="badge badge--info trust-badge" title="Its tools run without asking (Trust this server)">
      Trusted
    </span>
  );
}
