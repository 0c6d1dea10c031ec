import { z } from 'zod';
import { JsonObjectSchema } from './server.js';

/**
 * Pinned tool definitions: per server identity the host keeps what every tool
 * said it does when it was first seen (or last accepted). A tool whose
 * definition differs is "changed"; one that appeared after the server's
 * first listing is "new". Until the person has looked at it, no rule lets it
 * run without asking.
 */

/** What a tool says it does, as pinned: the parts a server could change to mislead. */
export const ToolDefinitionSchema = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: JsonObjectSchema,
  outputSchema: JsonObjectSchema.optional(),
  annotations: JsonObjectSchema.optional(),
});
export type ToolDefinition = z.infer<typeof ToolDefinitionSchema>;

/** The definition fields a diff may name. */
export const DefinitionFieldSchema = z.enum([
  'name',
  'title',
  'description',
  'inputSchema',
  'outputSchema',
  'annotations',
]);
export type DefinitionField = z.infer<typeof DefinitionFieldSchema>;

/** One line of a field's diff; hidden characters in `text` are already spelled out ("[U+200B]"). */
export const DiffLineSchema = z.object({
  op: z.enum(['same', 'removed', 'added']),
  text: z.string(),
});
export type DiffLine = z.infer<typeof DiffLineSchema>;

/** How one field differs, line by line (descriptions as text, schemas as indented JSON). */
export const FieldDiffSchema = z.object({
  field: DefinitionFieldSchema,
  lines: z.array(DiffLineSchema).max(5000),
});
export type FieldDiff = z.infer<typeof FieldDiffSchema>;

export const ToolChangeKindSchema = z.enum(['changed', 'new']);
export type ToolChangeKind = z.infer<typeof ToolChangeKindSchema>;

/** A tool whose definition the person has not looked at yet, with the diff against what was pinned. */
export const ToolChangeSchema = z.object({
  tool: z.string(),
  kind: ToolChangeKindSchema,
  /** Epoch ms of when the host first saw the definition now listed. */
  since: z.number(),
  /** SHA-256 of the definition now listed: accepting accepts exactly this one. */
  digest: z.string().regex(/^[0-9a-f]{64}$/),
  /** Only the fields that differ (a new tool: every field it has, as added lines). */
  fields: z.array(FieldDiffSchema),
  /** True when the old or new text holds zero-width, bidirectional or tag characters. */
  hiddenCharacters: z.boolean(),
});
export type ToolChange = z.infer<typeof ToolChangeSchema>;

/**
 * The definition of a tool as a server listed it (one item of `tools/list`),
 * or undefined when the item is not a tool. Members outside the definition
 * (`_meta`, icons, execution hints) are left out.
 */
export function toolDefinitionOf(item: unknown): ToolDefinition | undefined {
  const parsed = ToolDefinitionSchema.safeParse(item);
  if (!parsed.success) return undefined;
  const { name, title, description, inputSchema, outputSchema, annotations } = parsed.data;
  return {
    name,
    ...(title !== undefined ? { title } : {}),
    ...(description !== undefined ? { description } : {}),
    inputSchema,
    ...(outputSchema !== undefined ? { outputSchema } : {}),
    ...(annotations !== undefined ? { annotations } : {}),
  };
}

/** The definitions of the tools kept from a list, in its order (the first item of each kept name). */
export function toolDefinitionsOf(
  items: readonly unknown[],
  kept: (name: string) => boolean,
): ToolDefinition[] {
  const definitions = new Map<string, ToolDefinition>();
  for (const item of items) {
    const definition = toolDefinitionOf(item);
    if (definition && kept(definition.name) && !definitions.has(definition.name)) {
      definitions.set(definition.name, definition);
    }
  }
  return [...definitions.values()];
}
