import type { ToolChange, ToolDefinition } from '../../../shared/model/tool-pins.js';
import { canonicalDigest } from '../canonical-json.js';
import type { PinRow, ToolPinStore } from '../persistence/tool-pin-store.js';
import { definitionDiff, definitionsHideCharacters } from './definition-diff.js';

/** The digest a definition is pinned by: SHA-256 of its canonical JSON. */
export function definitionDigest(definition: ToolDefinition): string {
  return canonicalDigest(definition);
}

/**
 * Pinned tool definitions (issue 24, the "rug pull"): per server name and
 * identity, what every tool said it does when first seen. The first listing
 * of an identity pins every tool; later a tool whose definition differs from
 * its pin is "changed", and a tool not pinned is "new". Either stays marked
 * until the person accepts exactly the definition now listed (in a consent
 * dialog or the Servers view), or the server lists the pinned one again.
 *
 * Every list the host receives passes through `observe`; a definition equal
 * to the one last seen costs a digest and a map lookup, nothing is written,
 * so a server that sends its list a thousand times a second neither floods
 * the database nor the UI. The pins of an identity are read from the store
 * once and kept in memory.
 */
export class ToolPins {
  private readonly cache = new Map<string, Map<string, PinRow>>();

  constructor(private readonly store: ToolPinStore) {}

  /**
   * Compares a server's tool list with its pins and records what differs.
   * Returns the names of tools whose mark changed (empty when nothing did).
   */
  observe(server: string, identityHash: string, definitions: readonly ToolDefinition[]): string[] {
    const rows = this.rows(server, identityHash);
    const baseline = rows.size === 0;
    const writes: PinRow[] = [];
    const marks: string[] = [];
    for (const definition of definitions) {
      const digest = definitionDigest(definition);
      const row = rows.get(definition.name);
      if (row?.seen.digest === digest) continue;
      const seen = { digest, definition };
      const since = Date.now();
      let next: PinRow;
      if (!row) {
        next = baseline
          ? { tool: definition.name, pinned: seen, seen, status: 'pinned', since }
          : { tool: definition.name, seen, status: 'new', since };
      } else {
        const status = row.pinned?.digest === digest ? 'pinned' : row.pinned ? 'changed' : 'new';
        next = { ...row, seen, status, since };
      }
      if (next.status !== (row?.status ?? 'pinned')) marks.push(definition.name);
      rows.set(definition.name, next);
      writes.push(next);
    }
    this.store.save(server, identityHash, writes);
    return marks;
  }

  /** The tool's unaccepted change with its diff, or undefined when it is as pinned (or unknown). */
  change(server: string, identityHash: string, tool: string): ToolChange | undefined {
    const row = this.rows(server, identityHash).get(tool);
    return row ? changeOf(row) : undefined;
  }

  /** Every unaccepted change of a server identity, by tool name. */
  changes(server: string, identityHash: string): ToolChange[] {
    return [...this.rows(server, identityHash).values()]
      .flatMap((row) => changeOf(row) ?? [])
      .sort((a, b) => (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0));
  }

  /**
   * Accepts the definition with this digest as the tool's pin. False when the
   * tool is not marked or now lists another definition than the one shown
   * (that one must be looked at first).
   */
  accept(server: string, identityHash: string, tool: string, digest: string): boolean {
    const rows = this.rows(server, identityHash);
    const row = rows.get(tool);
    if (row?.status === 'pinned' || row?.seen.digest !== digest) return false;
    const next: PinRow = { ...row, pinned: row.seen, status: 'pinned' };
    this.store.save(server, identityHash, [next]);
    rows.set(tool, next);
    return true;
  }

  private rows(server: string, identityHash: string): Map<string, PinRow> {
    const key = `${server}\u0000${identityHash}`;
    let rows = this.cache.get(key);
    if (!rows) {
      rows = new Map(this.store.load(server, identityHash).map((row) => [row.tool, row]));
      this.cache.set(key, rows);
    }
    return rows;
  }
}

function changeOf(row: PinRow): ToolChange | undefined {
  if (row.status === 'pinned') return undefined;
  const before = row.pinned?.definition;
  return {
    tool: row.tool,
    kind: row.status,
    since: row.since,
    digest: row.seen.digest,
    fields: definitionDiff(before, row.seen.definition),
    hiddenCharacters: definitionsHideCharacters(before, row.seen.definition),
  };
}
