import { z } from 'zod';

/**
 * Elicitation form mode: the server's `requestedSchema` (a flat object of
 * primitive properties) turned into a list of form fields, the draft a
 * person edits, defaults, and validation. Pure: used by the host core (to
 * re-check and complete what the renderer answers) and by the renderer (to
 * draw the form and validate before "Accept").
 */

export const STRING_FORMATS = ['email', 'uri', 'date', 'date-time'] as const;
export type StringFormat = (typeof STRING_FORMATS)[number];

const text = z.string().max(10_000);
const optionSchema = z.object({ const: z.string(), title: z.string().optional() });

const StringPropertySchema = z.object({
  type: z.literal('string'),
  title: text.optional(),
  description: text.optional(),
  minLength: z.number().int().nonnegative().optional(),
  maxLength: z.number().int().nonnegative().optional(),
  format: z.string().optional(),
  enum: z.array(z.string()).optional(),
  enumNames: z.array(z.string()).optional(),
  oneOf: z.array(optionSchema).optional(),
  default: z.string().optional(),
});
const NumberPropertySchema = z.object({
  type: z.enum(['number', 'integer']),
  title: text.optional(),
  description: text.optional(),
  minimum: z.number().optional(),
  maximum: z.number().optional(),
  default: z.number().optional(),
});
const BooleanPropertySchema = z.object({
  type: z.literal('boolean'),
  title: text.optional(),
  description: text.optional(),
  default: z.boolean().optional(),
});
const ArrayPropertySchema = z.object({
  type: z.literal('array'),
  title: text.optional(),
  description: text.optional(),
  minItems: z.number().int().nonnegative().optional(),
  maxItems: z.number().int().nonnegative().optional(),
  items: z.object({
    type: z.literal('string').optional(),
    enum: z.array(z.string()).optional(),
    anyOf: z.array(optionSchema).optional(),
  }),
  default: z.array(z.string()).optional(),
});

const PropertySchema = z.discriminatedUnion('type', [
  StringPropertySchema,
  NumberPropertySchema,
  BooleanPropertySchema,
  ArrayPropertySchema,
]);

/** The `requestedSchema` of a form-mode elicitation, as far as the host understands it. */
export const RequestedSchemaSchema = z.object({
  type: z.literal('object'),
  properties: z.record(z.string().max(256), PropertySchema),
  required: z.array(z.string()).optional(),
});
export type RequestedSchema = z.infer<typeof RequestedSchemaSchema>;

export interface FieldOption {
  readonly value: string;
  readonly label: string;
}

interface FieldBase {
  readonly name: string;
  /** The property's title, else its name. */
  readonly label: string;
  readonly description?: string | undefined;
  readonly required: boolean;
}

export type FormField =
  | (FieldBase & {
      readonly kind: 'text';
      readonly format?: StringFormat | undefined;
      readonly minLength?: number | undefined;
      readonly maxLength?: number | undefined;
      readonly default?: string | undefined;
    })
  | (FieldBase & {
      readonly kind: 'number';
      readonly integer: boolean;
      readonly minimum?: number | undefined;
      readonly maximum?: number | undefined;
      readonly default?: number | undefined;
    })
  | (FieldBase & { readonly kind: 'boolean'; readonly default?: boolean | undefined })
  | (FieldBase & {
      readonly kind: 'select';
      readonly options: readonly FieldOption[];
      readonly default?: string | undefined;
    })
  | (FieldBase & {
      readonly kind: 'multiselect';
      readonly options: readonly FieldOption[];
      readonly minItems?: number | undefined;
      readonly maxItems?: number | undefined;
      readonly default?: readonly string[] | undefined;
    });

export type FormBuild = { ok: true; fields: FormField[] } | { ok: false; error: string };

/** Turns a server's `requestedSchema` into form fields (in the schema's property order). */
export function buildForm(requestedSchema: unknown): FormBuild {
  const parsed = RequestedSchemaSchema.safeParse(requestedSchema);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join('.') ?? '';
    return {
      ok: false,
      error: `Unsupported form schema${where ? ` at ${where}` : ''}: ${issue?.message ?? ''}`,
    };
  }
  const required = new Set(parsed.data.required ?? []);
  const fields: FormField[] = [];
  for (const [name, property] of Object.entries(parsed.data.properties)) {
    const base: FieldBase = {
      name,
      label: property.title ?? name,
      description: property.description,
      required: required.has(name),
    };
    fields.push(toField(base, property));
  }
  return { ok: true, fields };
}

function toField(base: FieldBase, property: z.infer<typeof PropertySchema>): FormField {
  switch (property.type) {
    case 'boolean':
      return { ...base, kind: 'boolean', default: property.default };
    case 'number':
    case 'integer':
      return {
        ...base,
        kind: 'number',
        integer: property.type === 'integer',
        minimum: property.minimum,
        maximum: property.maximum,
        default: property.default,
      };
    case 'array': {
      const options = property.items.anyOf
        ? property.items.anyOf.map((o) => ({ value: o.const, label: o.title ?? o.const }))
        : (property.items.enum ?? []).map((v) => ({ value: v, label: v }));
      return {
        ...base,
        kind: 'multiselect',
        options,
        minItems: property.minItems,
        maxItems: property.maxItems,
        default: property.default,
      };
    }
    case 'string': {
      if (property.oneOf) {
        const options = property.oneOf.map((o) => ({ value: o.const, label: o.title ?? o.const }));
        return { ...base, kind: 'select', options, default: property.default };
      }
      if (property.enum) {
        const names = property.enumNames;
        const options = property.enum.map((v, i) => ({ value: v, label: names?.[i] ?? v }));
        return { ...base, kind: 'select', options, default: property.default };
      }
      const format = (STRING_FORMATS as readonly string[]).includes(property.format ?? '')
        ? (property.format as StringFormat)
        : undefined;
      return {
        ...base,
        kind: 'text',
        format,
        minLength: property.minLength,
        maxLength: property.maxLength,
        default: property.default,
      };
    }
  }
}

/** What a person edits: text and number fields as typed text, booleans, lists of chosen values. */

export * from './elicitation-draft.js';
