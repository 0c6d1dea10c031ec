import type { DiffLine, FieldDiff, ToolDefinition } from '../../../shared/model/tool-pins.js';
import { DefinitionFieldSchema } from '../../../shared/model/tool-pins.js';
import { hasInvisible, jsonTerminalSafe, terminalSafe } from '../../../shared/text/invisible.js';
import { canonicalJson } from '../canonical-json.js';

/** Past this many lines on a side, a field's diff is every old line removed and every new one added. */
const MAX_LCS_LINES = 400;

/**
 * A field as the person reads it: text with control and hidden characters
 * spelled out ("[U+200B]"), schemas as indented JSON with sorted keys (the
 * same escapes), absent fields as no lines at all.
 */
function fieldLines(definition: ToolDefinition | undefined, field: FieldDiff['field']): string[] {
  const value = definition?.[field];
  if (value === undefined) return [];
  if (typeof value === 'string') return terminalSafe(value).split('\n');
  const pretty = JSON.stringify(JSON.parse(canonicalJson(value)), null, 2);
  return jsonTerminalSafe(pretty).split('\n');
}

/**
 * The line diff of two texts: a longest-common-subsequence walk, so a long
 * description with one sentence added shows just that sentence as added.
 */
export function diffLines(before: readonly string[], after: readonly string[]): DiffLine[] {
  if (before.length > MAX_LCS_LINES || after.length > MAX_LCS_LINES) {
    return [
      ...before.map((text) => ({ op: 'removed' as const, text })),
      ...after.map((text) => ({ op: 'added' as const, text })),
    ];
  }
  const n = before.length;
  const m = after.length;
  // common[i * (m + 1) + j]: length of the longest common subsequence of before[i..] and after[j..].
  const width = m + 1;
  const common = new Int32Array((n + 1) * width);
  const at = (i: number, j: number): number => common[i * width + j] ?? 0;
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      common[i * width + j] =
        before[i] === after[j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
    }
  }
  const lines: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    const old = before[i];
    const now = after[j];
    if (old !== undefined && now !== undefined && old === now) {
      lines.push({ op: 'same', text: old });
      i++;
      j++;
    } else if (old !== undefined && (now === undefined || at(i + 1, j) >= at(i, j + 1))) {
      lines.push({ op: 'removed', text: old });
      i++;
    } else {
      lines.push({ op: 'added', text: now ?? '' });
      j++;
    }
  }
  return lines;
}

/**
 * How a tool's definition differs from the pinned one, field by field (only
 * the fields that differ). With no pinned definition (a new tool) every field
 * it has is shown as added.
 */
export function definitionDiff(before: ToolDefinition | undefined, after: ToolDefinition): FieldDiff[] {
  const fields: FieldDiff[] = [];
  for (const field of DefinitionFieldSchema.options) {
    if (canonicalJson(before?.[field]) === canonicalJson(after[field])) continue;
    fields.push({ field, lines: diffLines(fieldLines(before, field), fieldLines(after, field)) });
  }
  return fields;
}

/** Whether either definition holds zero-width, bidirectional or tag characters anywhere. */
export function definitionsHideCharacters(...definitions: (ToolDefinition | undefined)[]): boolean {
  return definitions.some((d) => d !== undefined && hasInvisible(JSON.stringify(d)));
}
