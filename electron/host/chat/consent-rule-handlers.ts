import type { ConsentRules } from '../../../shared/model/consent-rules.js';
import { describeError } from '../errors.js';
import type { HostEventSink } from '../ipc/handlers.js';
import type { ServerManager } from '../servers/server-manager.js';
import type { ConsentAudit } from '../store/consent-audit.js';
import type { ConsentRuleStore } from '../store/consent-rule-store.js';
import type { ChatHandlers } from './chat-handlers.js';

export interface ConsentStores {
  rules: ConsentRuleStore;
  audit: ConsentAudit;
}

/**
 * The requests about consent rules and the audit trail: list, revoke, turn a
 * server-wide rule on or off. A rule made here is bound to the identity the
 * host sees for the server now; the renderer never names an identity.
 */
export function consentRuleHandlers(
  open: () => Promise<ConsentStores>,
  servers: ServerManager,
  emit: HostEventSink,
): Pick<ChatHandlers, 'listPolicies' | 'revokePolicy' | 'setServerTrust' | 'listAudit'> {
  const changed = (rules: ConsentRules): ConsentRules => {
    emit('policiesChanged', rules);
    return rules;
  };
  return {
    listPolicies: async () => (await open()).rules.list(),
    revokePolicy: async ({ id }) => {
      const { rules } = await open();
      rules.revoke(id);
      changed(rules.list());
      return null;
    },
    setServerTrust: async ({ server, scope, enabled }) => {
      const { rules } = await open();
      const identity = servers.get(server).identity;
      if (enabled) rules.add({ server, identity, scope });
      else rules.revokeScope(server, scope);
      return changed(rules.list());
    },
    listAudit: async ({ limit, beforeId }) => (await open()).audit.audit(limit, beforeId),
  };
}

/**
 * Writes a call the person makes themselves (the Servers view) to the audit
 * trail as `user_call`. Only calls that will be sent are written: the server
 * and tool exist and the arguments are JSON. The trail must not stop a person
 * from using their own tool, so a failure to write it is reported, not thrown.
 */
export async function auditUserCall(
  open: () => Promise<ConsentStores>,
  servers: ServerManager,
  call: { server: string; tool: string; argumentsJson: string },
): Promise<void> {
  if (!servers.has(call.server)) return;
  const connection = servers.get(call.server);
  const info = connection.catalog?.tools.find((t) => t.name === call.tool);
  if (!info) return;
  let args: unknown;
  try {
    args = JSON.parse(call.argumentsJson);
  } catch {
    return;
  }
  try {
    (await open()).audit.record({
      server: call.server,
      tool: call.tool,
      args,
      decision: 'user_call',
      identityHash: connection.identity.hash,
      annotations: info.annotations,
    });
  } catch (error) {
    // Never the arguments: only that the trail could not be written, and why.
    console.warn(`The audit trail could not record a call of "${call.tool}": ${describeError(error)}`);
  }
}
