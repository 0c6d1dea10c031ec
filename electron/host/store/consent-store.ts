import { createHash, randomUUID } from 'node:crypto';
import { AuditDecisionSchema } from '../../../shared/model/chat.js';
import type { AuditDecision, AuditEntry, ToolPolicy } from '../../../shared/model/chat.js';
import { HostError } from '../errors.js';
import type { Db } from './database.js';

interface AuditRow {
  id: number;
  time: number;
  server: string;
  tool: string;
  arguments_digest: string;
  decision: string;
  conversation_id: string | null;
}

/**
 * "Always allow this tool on this server" policies and the audit trail of
 * every consent decision for a tool call (including automatic allows by a
 * policy). Arguments are recorded only as a SHA-256 digest of their canonical
 * JSON, so the trail proves what was allowed without keeping the data.
 */
export class ConsentStore {
  constructor(private readonly db: Db) {}

  isAlwaysAllowed(server: string, tool: string): boolean {
    return (
      this.db.prepare('SELECT 1 FROM tool_policies WHERE server = ? AND tool = ?').get(server, tool) !==
      undefined
    );
  }

  allowAlways(server: string, tool: string): ToolPolicy {
    this.db
      .prepare('INSERT OR IGNORE INTO tool_policies (id, server, tool, created_at) VALUES (?, ?, ?, ?)')
      .run(randomUUID(), server, tool, Date.now());
    const row = this.db
      .prepare<[string, string], { id: string; server: string; tool: string; created_at: number }>(
        'SELECT id, server, tool, created_at FROM tool_policies WHERE server = ? AND tool = ?',
      )
      .get(server, tool);
    if (!row) throw new HostError('internal', 'The policy was not stored');
    return { id: row.id, server: row.server, tool: row.tool, createdAt: row.created_at };
  }

  policies(): ToolPolicy[] {
    return this.db
      .prepare<[], { id: string; server: string; tool: string; created_at: number }>(
        'SELECT id, server, tool, created_at FROM tool_policies ORDER BY server, tool',
      )
      .all()
      .map((row) => ({ id: row.id, server: row.server, tool: row.tool, createdAt: row.created_at }));
  }

  revoke(id: string): void {
    const changed = this.db.prepare('DELETE FROM tool_policies WHERE id = ?').run(id);
    if (changed.changes === 0) throw new HostError('not_found', 'No such policy');
  }

  record(entry: {
    server: string;
    tool: string;
    args: unknown;
    decision: AuditDecision;
    conversationId?: string;
  }): void {
    this.db
      .prepare(
        'INSERT INTO consent_audit (time, server, tool, arguments_digest, decision, conversation_id) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(
        Date.now(),
        entry.server,
        entry.tool,
        argumentsDigest(entry.args),
        entry.decision,
        entry.conversationId ?? null,
      );
  }

  audit(limit: number, beforeId?: number): AuditEntry[] {
    return this.db
      .prepare<[number, number], AuditRow>(
        'SELECT * FROM consent_audit WHERE id < ? ORDER BY id DESC LIMIT ?',
      )
      .all(beforeId ?? Number.MAX_SAFE_INTEGER, limit)
      .map((row) => ({
        id: row.id,
        time: row.time,
        server: row.server,
        tool: row.tool,
        argumentsDigest: row.arguments_digest,
        decision: AuditDecisionSchema.parse(row.decision),
        ...(row.conversation_id !== null ? { conversationId: row.conversation_id } : {}),
      }));
  }
}

/** SHA-256 (hex) of canonical JSON: object keys sorted at every level, no whitespace. */
export function argumentsDigest(args: unknown): string {
  return createHash('sha256').update(canonicalJson(args)).digest('hex');
}

export function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}
