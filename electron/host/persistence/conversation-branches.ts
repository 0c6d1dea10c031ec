/**
 * Branches of a conversation. Every message points to the one before it on
 * its branch (`parent`); editing a message or regenerating an answer adds a
 * sibling, so the old version and everything after it stay reachable. The
 * conversation shows one branch: the path from its first message to its
 * `head`. Pure functions over (id, parent, seq) rows, so they are cheap to
 * run on every read.
 */

export interface BranchRow {
  id: string;
  parent: string | null;
  seq: number;
}

export interface BranchInfo {
  /** 1-based place among the siblings (oldest first). */
  index: number;
  count: number;
  siblingIds: string[];
}

const ROOT = '';

/** Children of each message (and of the root, key ''), oldest first. Rows must be in seq order. */
export function childrenOf(rows: readonly BranchRow[]): Map<string, string[]> {
  const children = new Map<string, string[]>();
  for (const row of rows) {
    const key = row.parent ?? ROOT;
    const list = children.get(key);
    if (list) list.push(row.id);
    else children.set(key, [row.id]);
  }
  return children;
}

/**
 * The ids from the first message to `head`, in order. A missing or unknown
 * head means the newest message (the straight history of old databases).
 */
export function pathTo(rows: readonly BranchRow[], head: string | null): string[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  let cursor = head !== null && byId.has(head) ? byId.get(head) : rows.at(-1);
  const path: string[] = [];
  const seen = new Set<string>();
  while (cursor && !seen.has(cursor.id)) {
    seen.add(cursor.id);
    path.push(cursor.id);
    cursor = cursor.parent !== null ? byId.get(cursor.parent) : undefined;
  }
  return path.reverse();
}

/** Where each message with siblings stands among them. */
export function branchInfo(
  id: string,
  parent: string | null,
  children: Map<string, string[]>,
): BranchInfo | undefined {
  const siblings = children.get(parent ?? ROOT) ?? [];
  if (siblings.length < 2) return undefined;
  return { index: siblings.indexOf(id) + 1, count: siblings.length, siblingIds: [...siblings] };
}

/** The newest message at the end of `id`'s branch: follow the newest child down. */
export function newestLeaf(id: string, children: Map<string, string[]>): string {
  let cursor = id;
  const seen = new Set<string>([id]);
  for (;;) {
    const next = children.get(cursor)?.at(-1);
    if (next === undefined || seen.has(next)) return cursor;
    seen.add(next);
    cursor = next;
  }
}
