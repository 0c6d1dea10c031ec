import type { ConsentRule, IdentityParts, RuleScope } from '../../../../shared/model/consent-rules.js';
import type { ServerSnapshot } from '../../../../shared/model/server.js';

/** Each scope in words, as Settings and the badges say it. */
export const SCOPE_LABEL: Record<RuleScope, string> = {
  conversation: 'This tool, in one conversation',
  tool: 'This tool, always',
  server: 'Every tool (trusted server)',
  'read-only': 'Tools the server marks read-only',
};

/** Whether a rule applies to the server as it is configured now, and if not, why not. */
export type RuleStatus = 'in-effect' | 'unbound' | 'no-server' | 'changed';

export function ruleStatus(rule: ConsentRule, server: ServerSnapshot | undefined): RuleStatus {
  if (!rule.identity) return 'unbound';
  if (!server?.identity) return 'no-server';
  return server.identity.hash === rule.identity.hash ? 'in-effect' : 'changed';
}

/** The server-wide rule of this scope that applies to the server now, if any. */
export function serverRule(
  rules: readonly ConsentRule[] | undefined,
  server: ServerSnapshot,
  scope: 'server' | 'read-only',
): ConsentRule | undefined {
  return rules?.find(
    (r) => r.server === server.name && r.scope === scope && ruleStatus(r, server) === 'in-effect',
  );
}

/** Rules grouped by server name, servers in alphabetical order. */
export function groupByServer(rules: readonly ConsentRule[]): [string, ConsentRule[]][] {
  const groups = new Map<string, ConsentRule[]>();
  for (const rule of rules) groups.set(rule.server, [...(groups.get(rule.server) ?? []), rule]);
  return [...groups].sort(([a], [b]) => a.localeCompare(b));
}

/** One line saying what a server identity is: the command line (and env names, folder), or the URL. */
export function describeIdentity(parts: IdentityParts): string {
  if (parts.kind === 'remote') return parts.url;
  const quote = (s: string): string => (s === '' || /[\s"']/.test(s) ? JSON.stringify(s) : s);
  const line = [parts.command, ...parts.args].map(quote).join(' ');
  const env = parts.envNames.length > 0 ? ` · env ${parts.envNames.join(', ')}` : '';
  const cwd = parts.cwd !== undefined ? ` · in ${parts.cwd}` : '';
  return `${line}${env}${cwd}`;
}
