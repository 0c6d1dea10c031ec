import type { AuditDecision } from '../../../shared/model/chat.js';
import type { NetworkConsentDecision, NetworkConsentPrompt } from '../../../shared/model/network-consent.js';
import type { ConsentAudit } from '../persistence/consent-audit.js';
import type { SandboxNetworkServices } from '../servers/stdio/sandbox/network/proxy-launch.js';
import type { ConsentBroker } from './consent-broker.js';

export interface NetworkConsentOptions {
  /** Where the question goes; absent (the one-shot CLI): nobody can answer, so new hosts are denied. */
  broker: ConsentBroker | undefined;
  /** The audit trail; undefined when this host keeps none. */
  audit: () => Promise<ConsentAudit | undefined>;
  /** The server's identity hash now, recorded with the decision. */
  identityOf: (server: string) => string | undefined;
  /** "Always": writes the entry into the server's `sandbox.allowHosts` (without restarting it). */
  allowAlways: (server: string, entry: string) => Promise<void>;
  onWarning: (server: string, line: string) => void;
}

const AUDITED: Record<NetworkConsentDecision, AuditDecision> = {
  'allow-once': 'network_allow_once',
  always: 'network_always_allow',
  deny: 'network_deny',
};

/**
 * The person's say over the hosts sandboxed servers reach: the "network"
 * consent kind, asked through the same broker and queue as tool calls, each
 * decision written to the audit trail ("host:port" in place of the tool).
 */
export function networkConsent(options: NetworkConsentOptions): SandboxNetworkServices {
  const denied = new Map<string, Set<string>>();
  const record = async (
    server: string,
    prompt: NetworkConsentPrompt,
    decision: AuditDecision,
  ): Promise<void> => {
    try {
      const audit = await options.audit();
      audit?.record({
        server,
        tool: `${prompt.host}:${String(prompt.port)}`,
        args: { host: prompt.host, port: prompt.port },
        decision,
        identityHash: options.identityOf(server),
      });
    } catch (error) {
      options.onWarning(server, `The network decision could not be recorded: ${(error as Error).message}`);
    }
  };
  return {
    deniedFor: (server) => {
      let set = denied.get(server);
      if (set === undefined) {
        set = new Set();
        denied.set(server, set);
      }
      return set;
    },
    ask: async (server, prompt, signal) => {
      const { broker } = options;
      if (broker === undefined) {
        return {
          decision: 'deny',
          reason: 'no one can be asked here (command line): add the host to sandbox.allowHosts',
        };
      }
      let decision: NetworkConsentDecision;
      try {
        ({ decision } = await broker.ask('network', server, prompt, signal));
      } catch (error) {
        await record(server, prompt, 'network_unanswered');
        throw error;
      }
      await record(server, prompt, AUDITED[decision]);
      if (decision === 'always' && prompt.alwaysEntry !== undefined) {
        await options.allowAlways(server, prompt.alwaysEntry).catch((error: unknown) => {
          options.onWarning(
            server,
            `${prompt.alwaysEntry ?? ''} is allowed until the server stops, but could not be saved: ${(error as Error).message}`,
          );
        });
      }
      return { decision };
    },
  };
}
