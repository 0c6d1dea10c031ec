import { ServerNameSchema } from '../../../../shared/model/config.js';
import type { ImportChoice, ImportPreview } from '../../../../shared/model/import.js';

/** What the person decided for one previewed server. */
export interface ImportRow {
  readonly name: string;
  readonly include: boolean;
  /** The name it gets here. */
  readonly as: string;
}

/** Initial decisions: import what is valid and free, skip conflicts and broken entries. */
export function initialRows(preview: ImportPreview): ImportRow[] {
  return preview.servers.map((s) => ({
    name: s.name,
    include: s.problem === undefined && !s.conflict && ServerNameSchema.safeParse(s.name).success,
    as: s.name,
  }));
}

export interface ImportPlan {
  choices: ImportChoice[];
  /** Per row name: why its new name cannot be used. */
  rowErrors: Readonly<Record<string, string>>;
  /** Input ids a chosen server needs that have no value yet. */
  missingInputs: string[];
  count: number;
}

/** Checks the decisions against existing names, each other, and the inputs the chosen servers use. */
export function planImport(
  preview: ImportPreview,
  rows: readonly ImportRow[],
  existing: readonly string[],
  inputs: Readonly<Record<string, string>>,
): ImportPlan {
  const rowErrors: Record<string, string> = {};
  const taken = new Set(existing);
  const needed = new Set<string>();
  const choices: ImportChoice[] = rows.map((row) => {
    if (!row.include) return { name: row.name, action: 'skip' };
    const parsed = ServerNameSchema.safeParse(row.as);
    if (!parsed.success) rowErrors[row.name] = parsed.error.issues[0]?.message ?? 'Invalid name';
    else if (taken.has(parsed.data)) rowErrors[row.name] = `"${parsed.data}" already exists; rename or skip`;
    taken.add(parsed.success ? parsed.data : row.as);
    for (const id of preview.servers.find((s) => s.name === row.name)?.inputIds ?? []) needed.add(id);
    return { name: row.name, action: 'import', as: parsed.success ? parsed.data : row.as };
  });
  const missingInputs = [...needed].filter((id) => (inputs[id] ?? '') === '');
  return { choices, rowErrors, missingInputs, count: choices.filter((c) => c.action === 'import').length };
}
