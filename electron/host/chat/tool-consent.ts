import type { ToolInfo } from '../../../shared/model/server.js';
import type { ConsentBroker } from '../consent/consent-broker.js';
import type { ConsentStore } from '../store/consent-store.js';

export interface ToolDecision {
  allowed: boolean;
  by: 'user' | 'policy';
}

/**
 * Consent for one model-initiated tool call, enforced here in the host: an
 * "always allow" policy for (server, tool) allows it at once; otherwise the
 * person is asked through the ConsentBroker. Every outcome, automatic or not,
 * is written to the audit trail. A withdrawn request (Stop) is audited and
 * its error rethrown.
 */
export class ToolConsent {
  constructor(
    private readonly broker: ConsentBroker,
    private readonly store: ConsentStore,
  ) {}

  async decide(
    call: {
      server: string;
      tool: ToolInfo;
      args: unknown;
      conversationId?: string | undefined;
      /** An MCP App's `ui://` resource, when the app (not the model) asks. */
      appResourceUri?: string | undefined;
    },
    signal: AbortSignal,
  ): Promise<ToolDecision> {
    const { server, tool, args, conversationId, appResourceUri } = call;
    const audit = (decision: 'allow_once' | 'always_allow' | 'policy_allow' | 'deny' | 'withdrawn') => {
      this.store.record({
        server,
        tool: tool.name,
        args,
        decision,
        ...(conversationId !== undefined ? { conversationId } : {}),
      });
    };
    if (this.store.isAlwaysAllowed(server, tool.name)) {
      audit('policy_allow');
      return { allowed: true, by: 'policy' };
    }
    let answer;
    try {
      answer = await this.broker.ask(
        'tool',
        server,
        {
          tool: tool.name,
          ...(tool.title !== undefined ? { title: tool.title } : {}),
          ...(tool.description !== undefined ? { description: tool.description } : {}),
          argumentsJson: JSON.stringify(args, null, 2),
          ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
          ...(appResourceUri !== undefined ? { requestedByApp: { resourceUri: appResourceUri } } : {}),
        },
        signal,
      );
    } catch (error) {
      audit('withdrawn');
      throw error;
    }
    switch (answer.decision) {
      case 'allow-once':
        audit('allow_once');
        return { allowed: true, by: 'user' };
      case 'always-allow':
        this.store.allowAlways(server, tool.name);
        audit('always_allow');
        return { allowed: true, by: 'user' };
      case 'deny':
        audit('deny');
        return { allowed: false, by: 'user' };
    }
  }
}
