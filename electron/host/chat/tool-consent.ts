import type { AuditDecision } from '../../../shared/model/chat.js';
import type { ToolConsentDecision } from '../../../shared/model/consent.js';
import type { RuleRef, RuleScope, ServerIdentity } from '../../../shared/model/consent-rules.js';
import type { ServerSnapshot, ToolInfo } from '../../../shared/model/server.js';
import type { ToolChange, ToolDefinition } from '../../../shared/model/tool-pins.js';
import { canonicalJson } from '../canonical-json.js';
import type { ConsentBroker } from '../consent/consent-broker.js';
import { matchRule } from '../consent/rule-matching.js';
import type { ToolPins } from '../consent/tool-pins.js';
import type { ConsentAudit } from '../persistence/consent-audit.js';
import type { ConsentRuleStore } from '../persistence/consent-rule-store.js';
import { toolKey } from './tool-offer.js';

export interface ToolDecision {
  allowed: boolean;
  by: 'user' | 'policy';
  /** The rule that allowed the call without asking. */
  rule?: RuleRef;
  /** The identity the decision was made for: the call must still go to this one. */
  identityHash: string;
}

/** What each allowing answer makes, besides allowing this call. */
const RULE_OF: Partial<Record<ToolConsentDecision, RuleScope>> = {
  'allow-conversation': 'conversation',
  'always-allow': 'tool',
  'trust-server': 'server',
  'allow-read-only': 'read-only',
};

const AUDIT_OF: Record<ToolConsentDecision, AuditDecision> = {
  'allow-once': 'allow_once',
  'allow-conversation': 'allow_conversation',
  'always-allow': 'always_allow',
  'trust-server': 'trust_server',
  'allow-read-only': 'allow_read_only',
  deny: 'deny',
};

export interface ToolConsentOptions {
  broker: ConsentBroker;
  rules: ConsentRuleStore;
  audit: ConsentAudit;
  /** The identity of a configured server as it is now. */
  identityOf: (server: string) => ServerIdentity;
  /** A rule was made: tell the UI. */
  onRulesChanged: () => void;
  /** The pinned tool definitions (consent/tool-pins.ts). */
  pins: ToolPins;
  /** The server's tool list as it is now (its catalog's definitions). */
  definitionsOf: (server: string) => readonly ToolDefinition[];
}

/**
 * Consent for one model-initiated tool call, enforced here in the host. A
 * rule bound to this server's name and current identity allows it at once;
 * otherwise the person is asked through the ConsentBroker, and an answer
 * that makes a rule binds it to that identity. Every outcome, automatic or
 * not, goes to the audit trail, with the rule that allowed it and the
 * server's claims about the tool at the time. A withdrawn request (Stop) is
 * audited and its error rethrown.
 */
export class ToolConsent {
  constructor(private readonly options: ToolConsentOptions) {}

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
    const { rules, audit, broker } = this.options;
    const identity = this.options.identityOf(server);
    const record = (decision: AuditDecision, rule?: RuleRef, digest?: string) => {
      audit.record({
        server,
        tool: tool.name,
        args,
        decision,
        conversationId,
        identityHash: identity.hash,
        rule,
        annotations: tool.annotations,
        digest,
      });
    };
    const change = this.definitionChange(server, identity.hash, tool);
    // A changed or new definition is asked about, whatever rule there is, until the person accepts it.
    const rule = change
      ? undefined
      : matchRule(rules.applicable(), {
          server,
          identityHash: identity.hash,
          tool: tool.name,
          readOnly: tool.annotations?.readOnlyHint === true,
          conversationId,
        });
    if (rule) {
      const ref = { id: rule.id, scope: rule.scope };
      record('policy_allow', ref);
      return { allowed: true, by: 'policy', rule: ref, identityHash: identity.hash };
    }
    const before = audit.lastAnnotations(server, identity.hash, tool.name);
    const changed = before !== undefined && canonicalJson(before) !== canonicalJson(tool.annotations ?? {});
    const problem = rules.problem();
    let answer;
    try {
      answer = await broker.ask(
        'tool',
        server,
        {
          tool: tool.name,
          ...(tool.title !== undefined ? { title: tool.title } : {}),
          ...(tool.description !== undefined ? { description: tool.description } : {}),
          argumentsJson: JSON.stringify(args, null, 2),
          ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
          ...(appResourceUri !== undefined ? { requestedByApp: { resourceUri: appResourceUri } } : {}),
          ...(conversationId === undefined ? { outsideConversation: true } : {}),
          ...(changed ? { annotationsChanged: { before } } : {}),
          ...(change ? { definitionChange: change } : {}),
          identity: identity.parts,
          ...(problem !== undefined ? { rulesUnavailable: problem } : {}),
        },
        signal,
      );
    } catch (error) {
      record('withdrawn');
      throw error;
    }
    const { decision } = answer;
    if (decision === 'deny') {
      record('deny');
      return { allowed: false, by: 'user', identityHash: identity.hash };
    }
    // Allowing the call is having looked at the change: exactly the definition shown is pinned.
    if (change && this.options.pins.accept(server, identity.hash, tool.name, change.digest)) {
      record('accept_change', undefined, change.digest);
    }
    // "For this conversation" outside any conversation lasts for this call only.
    const scope =
      decision === 'allow-conversation' && conversationId === undefined ? undefined : RULE_OF[decision];
    // The store may have become untrusted while the dialog was open: then this call is allowed once.
    if (scope !== undefined && rules.problem() === undefined) {
      rules.add({ server, identity, scope, tool: tool.name, conversationId });
      this.options.onRulesChanged();
      record(AUDIT_OF[decision]);
    } else {
      record('allow_once');
    }
    return { allowed: true, by: 'user', identityHash: identity.hash };
  }

  /**
   * The tools of connected servers whose definition is marked changed or new
   * (as toolKey), after comparing each server's list as it is now with its
   * pins: the model's tool list for a request is built with these marked, so
   * a definition that changed mid-turn does not reach it unmarked.
   */
  changedTools(servers: readonly ServerSnapshot[]): ReadonlySet<string> {
    const changed = new Set<string>();
    for (const server of servers) {
      if (server.status !== 'connected') continue;
      const identity = this.options.identityOf(server.name).hash;
      this.options.pins.observe(server.name, identity, this.options.definitionsOf(server.name));
      for (const change of this.options.pins.changes(server.name, identity)) {
        changed.add(toolKey(server.name, change.tool));
      }
    }
    return changed;
  }

  /**
   * The tool's unaccepted change, after comparing the server's list as it is
   * now with the pins (so a definition that changed a moment ago is marked
   * even if its list has not been compared yet). A tool missing from the
   * definitions (one the pin schema refuses) is pinned by what the catalog kept.
   */
  private definitionChange(server: string, identityHash: string, tool: ToolInfo): ToolChange | undefined {
    const { pins } = this.options;
    const definitions = this.options.definitionsOf(server);
    const listed = definitions.some((d) => d.name === tool.name)
      ? definitions
      : [
          ...definitions,
          {
            name: tool.name,
            ...(tool.title !== undefined ? { title: tool.title } : {}),
            ...(tool.description !== undefined ? { description: tool.description } : {}),
            inputSchema: tool.inputSchema,
            ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
          },
        ];
    pins.observe(server, identityHash, listed);
    return pins.change(server, identityHash, tool.name);
  }
}
