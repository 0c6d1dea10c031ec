import type { ConsentRule, RuleScope } from '../../../shared/model/consent-rules.js';

/** One model-initiated tool call, as the rules look at it. */
export interface CallToMatch {
  server: string;
  /** The server's identity hash now. */
  identityHash: string;
  tool: string;
  /** What the server says about the tool now (`readOnlyHint: true`). */
  readOnly: boolean;
  /** Undefined for a call outside any conversation (an MCP App in the Servers view). */
  conversationId?: string | undefined;
}

/** When several rules apply, the one named is the narrowest. */
const PRECEDENCE: readonly RuleScope[] = ['conversation', 'tool', 'server', 'read-only'];

/**
 * The rule that lets this call run without asking, if any. A rule applies
 * only to a server with the same name AND the same identity it was made
 * for; an unbound rule (from a version that did not bind rules) never does.
 * The read-only opt-in follows what the server claims now, not what it
 * claimed when the rule was made.
 */
export function matchRule(rules: readonly ConsentRule[], call: CallToMatch): ConsentRule | undefined {
  const applicable = rules.filter((rule) => {
    if (rule.server !== call.server || rule.identity?.hash !== call.identityHash) return false;
    switch (rule.scope) {
      case 'conversation':
        return (
          call.conversationId !== undefined &&
          rule.tool === call.tool &&
          rule.conversationId === call.conversationId
        );
      case 'tool':
        return rule.tool === call.tool;
      case 'server':
        return true;
      case 'read-only':
        return call.readOnly;
    }
  });
  for (const scope of PRECEDENCE) {
    const found = applicable.find((rule) => rule.scope === scope);
    if (found) return found;
  }
  return undefined;
}
