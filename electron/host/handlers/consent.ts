import type { ConsentRules } from '../../../shared/model/consent-rules.js';
import type { ConsentBroker } from '../consent/consent-broker.js';
import type { ToolPinGate } from '../consent/tool-pin-gate.js';
import { HostError } from '../errors.js';
import type { DomainHandlers, HostEventSink } from '../ipc/handlers.js';
import type { Persistence } from '../persistence/persistence.js';
import type { ServerManager } from '../servers/server-manager.js';

/**
 * The consent requests: the pending decisions and the person's answers, the
 * rules (list, revoke, turn a server-wide rule on or off) and the audit trail.
 * A rule made here is bound to the identity the host sees for the server now;
 * the renderer never names an identity.
 */
export function consentHandlers(
  broker: ConsentBroker,
  persistence: Persistence,
  servers: ServerManager,
  emit: HostEventSink,
  pinGate: ToolPinGate,
): DomainHandlers<'consent'> {
  const changed = (rules: ConsentRules): ConsentRules => {
    emit('policiesChanged', rules);
    return rules;
  };
  const open = () => persistence.open();
  /** The server's pins after comparing them with its tool list as it is now, and its identity. */
  const pinsOf = async (server: string) => {
    const connection = servers.get(server);
    const pins = await pinGate.pins();
    const identity = connection.identity.hash;
    pins.observe(server, identity, connection.catalog?.toolDefinitions ?? []);
    return { pins, identity };
  };
  return {
    listConsents: () => Promise.resolve(broker.pending()),
    answerConsent: ({ id, answer }) => {
      broker.answer(id, answer);
      return Promise.resolve(null);
    },
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
    listToolChanges: async ({ server }) => {
      const { pins, identity } = await pinsOf(server);
      return pins.changes(server, identity);
    },
    acceptToolChange: async ({ server, tool, digest }) => {
      const { pins, identity } = await pinsOf(server);
      if (!pins.accept(server, identity, tool, digest)) {
        throw new HostError(
          'conflict',
          `"${tool}" lists another definition now; look at it again before accepting`,
        );
      }
      const { audit } = await open();
      audit.record({ server, tool, args: {}, decision: 'accept_change', identityHash: identity, digest });
      return pins.changes(server, identity);
    },
  };
}
