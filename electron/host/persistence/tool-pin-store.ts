import { z } from 'zod';
import { ToolDefinitionSchema } from '../../../shared/model/tool-pins.js';
import type { ToolDefinition } from '../../../shared/model/tool-pins.js';
import type { Db } from './database.js';

/** A tool's pin: `pinned` absent for a tool that appeared after the server's first listing and was never accepted. */
export interface PinRow {
  tool: string;
  pinned?: { digest: string; definition: ToolDefinition } | undefined;
  seen: { digest: string; definition: ToolDefinition };
  status: PinStatus;
  /** Epoch ms of when the host first saw the definition now listed. */
  since: number;
}

export const PinStatusSchema = z.enum(['pinned', 'changed', 'new']);
export type PinStatus = z.infer<typeof PinStatusSchema>;

interface Row {
  tool: string;
  pinned_digest: string | null;
  pinned_definition: string | null;
  seen_digest: string;
  seen_definition: string;
  status: string;
  since: number;
}

const DefinitionJson = z.string().transform((text, ctx) => {
  try {
    return ToolDefinitionSchema.parse(JSON.parse(text));
  } catch {
    ctx.addIssue({ code: 'custom', message: 'definition is not valid' });
    return z.NEVER;
  }
});

/**
 * The pinned tool definitions in SQLite: one row per server name, identity and
 * tool, and one row per distinct definition a tool was seen with. Plain
 * reads and writes; the rules of what is "changed" live in consent/tool-pins.ts.
 */
export class ToolPinStore {
  constructor(private readonly db: Db) {}

  /** The pins of one server identity. A row that does not parse reads as absent (its tool then counts as new). */
  load(server: string, identityHash: string): PinRow[] {
    return this.db
      .prepare<[string, string], Row>(
        `SELECT tool, pinned_digest, pinned_definition, seen_digest, seen_definition, status, since
         FROM tool_pins WHERE server = ? AND identity_hash = ?`,
      )
      .all(server, identityHash)
      .flatMap((row) => {
        const status = PinStatusSchema.safeParse(row.status);
        const seen = DefinitionJson.safeParse(row.seen_definition);
        const pinned =
          row.pinned_definition === null ? undefined : DefinitionJson.safeParse(row.pinned_definition);
        if (!status.success || !seen.success || pinned?.success === false) return [];
        if ((row.pinned_digest === null) !== (pinned === undefined)) return [];
        return [
          {
            tool: row.tool,
            ...(pinned?.success === true && row.pinned_digest !== null
              ? { pinned: { digest: row.pinned_digest, definition: pinned.data } }
              : {}),
            seen: { digest: row.seen_digest, definition: seen.data },
            status: status.data,
            since: row.since,
          },
        ];
      });
  }

  /** Writes several pins (and records each newly seen definition once) in one transaction. */
  save(server: string, identityHash: string, rows: readonly PinRow[]): void {
    if (rows.length === 0) return;
    const upsert = this.db.prepare(
      `INSERT INTO tool_pins
         (server, identity_hash, tool, pinned_digest, pinned_definition, seen_digest, seen_definition, status, since)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (server, identity_hash, tool) DO UPDATE SET
         pinned_digest = excluded.pinned_digest, pinned_definition = excluded.pinned_definition,
         seen_digest = excluded.seen_digest, seen_definition = excluded.seen_definition,
         status = excluded.status, since = excluded.since`,
    );
    const seen = this.db.prepare(
      `INSERT OR IGNORE INTO tool_pin_changes (server, identity_hash, tool, digest, seen_at) VALUES (?, ?, ?, ?, ?)`,
    );
    this.db.transaction(() => {
      for (const row of rows) {
        upsert.run(
          server,
          identityHash,
          row.tool,
          row.pinned?.digest ?? null,
          row.pinned ? JSON.stringify(row.pinned.definition) : null,
          row.seen.digest,
          JSON.stringify(row.seen.definition),
          row.status,
          row.since,
        );
        seen.run(server, identityHash, row.tool, row.seen.digest, Date.now());
      }
    })();
  }

  /** How many distinct definitions of this tool the host has seen (for tests and diagnostics). */
  definitionsSeen(server: string, identityHash: string, tool: string): number {
    const row = this.db
      .prepare<[string, string, string], { n: number }>(
        'SELECT COUNT(*) AS n FROM tool_pin_changes WHERE server = ? AND identity_hash = ? AND tool = ?',
      )
      .get(server, identityHash, tool);
    return row?.n ?? 0;
  }
}
