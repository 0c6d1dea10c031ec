import { AuditDecisionSchema } from '../../../shared/model/chat.js';
import type { AuditDecision, AuditEntry } from '../../../shared/model/chat.js';
import { RuleScopeSchema } from '../../../shared/model/consent-rules.js';
import type { RuleRef } from '../../../shared/model/consent-rules.js';
import { ToolAnnotationsSchema } from '../../../shared/model/server.js';
import type { ToolInfo } from '../../../shared/model/server.js';
import { canonicalDigest } from '../canonical-json.js';
import type { Db } from './database.js';

type Annotations = NonNullable<ToolInfo['annotations']>;

interface AuditRow {
  id: number;
  time: number;
  server: string;
  tool: string;
  arguments_digest: string;
  decision: string;
  conversation_id: string | null;
  identity_hash: string | null;
  rule_id: string | null;
  rule_scope: string | null;
}

/** One line of the audit trail, as the host writes it. */
export interface AuditRecord {
  server: string;
  tool: string;
  args: unknown;
  decision: AuditDecision;
  conversationId?: string | undefined;
  /** The server's identity hash at the call. */
  identityHash?: string | undefined;
  /** The rule that allowed the call (policy_allow). */
  rule?: RuleRef | undefined;
  /** What the server claimed about the tool at the call. */
  annotations?: Annotations | undefined;
  /** Kept in place of the arguments' digest: for `accept_change`, the digest of the definition accepted. */
  digest?: string | undefined;
}

/**
 * The audit trail of every decision on a tool call: the person's answers,
 * the rule that allowed a call without asking, and the calls the person made
 * themselves. Arguments are kept only as a SHA-256 digest of their canonical
 * JSON, so the trail proves what was allowed without keeping the data.
 */
export class ConsentAudit {
  constructor(private readonly db: Db) {}

  record(entry: AuditRecord): void {
    this.db
      .prepare(
        `INSERT INTO consent_audit
           (time, server, tool, arguments_digest, decision, conversation_id, identity_hash, rule_id, rule_scope, annotations)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        Date.now(),
        entry.server,
        entry.tool,
        entry.digest ?? argumentsDigest(entry.args),
        entry.decision,
        entry.conversationId ?? null,
        entry.identityHash ?? null,
        entry.rule?.id ?? null,
        entry.rule?.scope ?? null,
        JSON.stringify(entry.annotations ?? {}),
      );
  }

  /** Newest first; entries this version cannot read are left out rather than failing the list. */
  audit(limit: number, beforeId?: number): AuditEntry[] {
    return this.db
      .prepare<[number, number], AuditRow>(
        `SELECT id, time, server, tool, arguments_digest, decision, conversation_id, identity_hash, rule_id, rule_scope
         FROM consent_audit WHERE id < ? ORDER BY id DESC LIMIT ?`,
      )
      .all(beforeId ?? Number.MAX_SAFE_INTEGER, limit)
      .flatMap((row) => {
        const decision = AuditDecisionSchema.safeParse(row.decision);
        if (!decision.success) return [];
        const scope = RuleScopeSchema.safeParse(row.rule_scope);
        return [
          {
            id: row.id,
            time: row.time,
            server: row.server,
            tool: row.tool,
            argumentsDigest: row.arguments_digest,
            decision: decision.data,
            ...(row.conversation_id !== null ? { conversationId: row.conversation_id } : {}),
            ...(row.identity_hash !== null ? { identityHash: row.identity_hash } : {}),
            ...(row.rule_id !== null && scope.success
              ? { rule: { id: row.rule_id, scope: scope.data } }
              : {}),
          },
        ];
      });
  }

  /**
   * What the server claimed about this tool at its last recorded call (by
   * the model or the person), for the same server identity; undefined when
   * there is none, so the dialog can say when the claims changed.
   */
  lastAnnotations(server: string, identityHash: string, tool: string): Annotations | undefined {
    const row = this.db
      .prepare<[string, string, string], { annotations: string | null }>(
        `SELECT annotations FROM consent_audit
         WHERE server = ? AND tool = ? AND identity_hash = ? AND annotations IS NOT NULL
         ORDER BY id DESC LIMIT 1`,
      )
      .get(server, tool, identityHash);
    if (row?.annotations === undefined || row.annotations === null) return undefined;
    try {
      const parsed = ToolAnnotationsSchema.safeParse(JSON.parse(row.annotations));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }
}

/** SHA-256 (hex) of the canonical JSON of the arguments. */
export function argumentsDigest(args: unknown): string {
  return canonicalDigest(args);
}
