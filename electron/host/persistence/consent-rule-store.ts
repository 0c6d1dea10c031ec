import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { IdentityPartsSchema, RuleScopeSchema } from '../../../shared/model/consent-rules.js';
import type {
  ConsentRule,
  ConsentRules,
  RuleScope,
  ServerIdentity,
} from '../../../shared/model/consent-rules.js';
import { identityHash } from '../consent/server-identity.js';
import { HostError, describeError } from '../errors.js';
import type { Db } from './database.js';
import { MIGRATIONS } from './migrations.js';

interface RuleRow {
  id: string;
  server: string;
  scope: string;
  tool: string | null;
  conversation_id: string | null;
  identity_hash: string | null;
  identity: string | null;
  created_at: number;
  conversation_title: string | null;
}

/** A new rule: the host supplies the identity of the server as it is now. */
export interface NewRule {
  server: string;
  identity: ServerIdentity;
  scope: RuleScope;
  tool?: string | undefined;
  conversationId?: string | undefined;
}

const KNOWN_VERSION = Math.max(...MIGRATIONS.map((m) => m.version));

/**
 * The consent rules in SQLite. Every read parses every row: a row that does
 * not parse, or whose stored identity does not hash to its recorded hash, or
 * a database written by a newer version of the app, makes the whole store
 * untrusted. Then `applicable()` returns nothing (every call asks), new rules
 * are refused, and `list()` says why, so Settings can show it. Nothing here
 * throws on a damaged store except the refusal to write.
 */
export class ConsentRuleStore {
  constructor(private readonly db: Db) {}

  /** Every rule, grouped by server then scope, and the store's problem if it has one. */
  list(): ConsentRules {
    const ahead = this.newerVersion();
    let rows: RuleRow[];
    try {
      rows = this.db
        .prepare<[], RuleRow>(
          `SELECT r.*, c.title AS conversation_title FROM consent_rules r
           LEFT JOIN conversations c ON c.id = r.conversation_id
           ORDER BY r.server, r.scope, r.tool, r.created_at`,
        )
        .all();
    } catch (error) {
      return { rules: [], problem: `The consent rules could not be read (${describeError(error)}).` };
    }
    const rules: ConsentRule[] = [];
    let damaged = 0;
    for (const row of rows) {
      const rule = parseRow(row);
      if (rule) rules.push(rule);
      else damaged++;
    }
    const problem =
      ahead !== undefined
        ? `The rule store was written by a newer version of the app (schema ${String(ahead)}, this version knows ${String(KNOWN_VERSION)}).`
        : damaged > 0
          ? `${String(damaged)} stored rule${damaged === 1 ? ' is' : 's are'} damaged or of a kind this version does not know.`
          : undefined;
    return { rules, ...(problem !== undefined ? { problem } : {}) };
  }

  /** The rules that may allow calls: none at all when the store is untrusted. */
  applicable(): ConsentRule[] {
    const { rules, problem } = this.list();
    return problem === undefined ? rules : [];
  }

  /** Why no rule may be made or applied now, if so. */
  problem(): string | undefined {
    return this.list().problem;
  }

  /** Adds a rule (or returns the same one made before). Refused when the store is untrusted. */
  add(rule: NewRule): ConsentRule {
    const problem = this.problem();
    if (problem !== undefined) {
      throw new HostError('conflict', `No rule was saved: ${problem}`);
    }
    const tool = rule.scope === 'conversation' || rule.scope === 'tool' ? (rule.tool ?? null) : null;
    const conversationId = rule.scope === 'conversation' ? (rule.conversationId ?? null) : null;
    if (tool === null && (rule.scope === 'conversation' || rule.scope === 'tool')) {
      throw new HostError('invalid_params', `A "${rule.scope}" rule needs a tool`);
    }
    if (conversationId === null && rule.scope === 'conversation') {
      throw new HostError('invalid_params', 'A "conversation" rule needs a conversation');
    }
    this.db
      .prepare(
        `INSERT OR IGNORE INTO consent_rules
           (id, server, scope, tool, conversation_id, identity_hash, identity, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        randomUUID(),
        rule.server,
        rule.scope,
        tool,
        conversationId,
        rule.identity.hash,
        JSON.stringify(rule.identity.parts),
        Date.now(),
      );
    const stored = this.list().rules.find(
      (r) =>
        r.server === rule.server &&
        r.scope === rule.scope &&
        (r.tool ?? null) === tool &&
        (r.conversationId ?? null) === conversationId &&
        r.identity?.hash === rule.identity.hash,
    );
    if (!stored) throw new HostError('internal', 'The rule was not stored');
    return stored;
  }

  revoke(id: string): void {
    const changed = this.db.prepare('DELETE FROM consent_rules WHERE id = ?').run(id);
    if (changed.changes === 0) throw new HostError('not_found', 'No such rule');
  }

  /** Revokes every rule of this scope for a server, whatever identity it is bound to. */
  revokeScope(server: string, scope: RuleScope): number {
    return this.db.prepare('DELETE FROM consent_rules WHERE server = ? AND scope = ?').run(server, scope)
      .changes;
  }

  /** The schema version of a newer app that wrote this database, if one did. */
  private newerVersion(): number | undefined {
    try {
      const row = this.db.prepare<[], { v: number | null }>('SELECT MAX(version) AS v FROM migrations').get();
      return row?.v !== null && row?.v !== undefined && row.v > KNOWN_VERSION ? row.v : undefined;
    } catch {
      return undefined;
    }
  }
}

const IdentityJson = z.string().transform((text, ctx) => {
  try {
    return IdentityPartsSchema.parse(JSON.parse(text));
  } catch {
    ctx.addIssue({ code: 'custom', message: 'identity is not valid' });
    return z.NEVER;
  }
});

/** A stored row as a rule, or undefined when it is damaged or of an unknown kind. */
function parseRow(row: RuleRow): ConsentRule | undefined {
  const scope = RuleScopeSchema.safeParse(row.scope);
  if (!scope.success || typeof row.id !== 'string' || typeof row.server !== 'string') return undefined;
  if (typeof row.created_at !== 'number') return undefined;
  const needsTool = scope.data === 'conversation' || scope.data === 'tool';
  if (needsTool !== (typeof row.tool === 'string' && row.tool !== '')) return undefined;
  if ((scope.data === 'conversation') !== (typeof row.conversation_id === 'string')) return undefined;
  let identity: ServerIdentity | undefined;
  if (row.identity_hash !== null || row.identity !== null) {
    const parts = IdentityJson.safeParse(row.identity);
    // A hash that does not match its parts means the row was altered: never trust it.
    if (!parts.success || row.identity_hash !== identityHash(parts.data)) return undefined;
    identity = { hash: row.identity_hash, parts: parts.data };
  }
  return {
    id: row.id,
    server: row.server,
    scope: scope.data,
    ...(row.tool !== null ? { tool: row.tool } : {}),
    ...(row.conversation_id !== null ? { conversationId: row.conversation_id } : {}),
    ...(row.conversation_title !== null ? { conversationTitle: row.conversation_title } : {}),
    ...(identity ? { identity } : {}),
    createdAt: row.created_at,
  };
}
