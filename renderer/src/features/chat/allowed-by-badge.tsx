import type { RuleRef } from '../../../../shared/model/consent-rules.js';

const BY_RULE: Record<RuleRef['scope'], string> = {
  conversation: 'allowed for this conversation',
  tool: 'always allowed',
  server: 'trusted server',
  'read-only': 'read-only opt-in',
};

/**
 * On a tool card: the call ran without asking, and which rule let it. Read
 * from the stored result (so it survives a reload) or the live update.
 */
export function AllowedByBadge({
  allowedBy,
  rule,
}: {
  allowedBy: 'user' | 'policy' | undefined;
  rule: RuleRef | undefined;
}) {
  if (allowedBy !== 'policy') return null;
  const which = rule ? BY_RULE[rule.scope] : 'a rule';
  return (
    <span className="tool-card__policy" title={`Ran without asking: ${which} (see Settings → Consent rules)`}>
      auto-allowed · {which}
    </span>
  );
}
