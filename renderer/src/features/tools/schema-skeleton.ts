type JsonObject = Readonly<Record<string, unknown>>;

const asObject = (value: unknown): JsonObject | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : undefined;

/**
 * Starting text for a tool's "Arguments (JSON)": an object with every
 * required property of the input schema set to a placeholder of its type
 * ("" / 0 / false / [] / {}), or its default, const or first enum value.
 * Optional properties are left out; the schema block shows them.
 */
export function argumentsSkeleton(inputSchema: JsonObject): string {
  const properties = asObject(inputSchema.properties) ?? {};
  const required = Array.isArray(inputSchema.required)
    ? inputSchema.required.filter((name): name is string => typeof name === 'string')
    : [];
  const skeleton: Record<string, unknown> = {};
  for (const name of required) skeleton[name] = placeholderFor(asObject(properties[name]));
  return JSON.stringify(skeleton, null, 2);
}

function placeholderFor(schema: JsonObject | undefined): unknown {
  if (!schema) return null;
  if ('default' in schema) return schema.default;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const branches = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branches) && schema.type === undefined) return placeholderFor(asObject(branches[0]));
  switch (firstType(schema.type)) {
    case 'string':
      return '';
    case 'number':
    case 'integer':
      return 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return {};
    case 'null':
      return null;
    default:
      return schema.properties === undefined ? null : {};
  }
}

/** `type` may be one name or a list ("string" | ["string", "null"]); prefer a non-null one. */
function firstType(type: unknown): string | undefined {
  if (typeof type === 'string') return type;
  if (!Array.isArray(type)) return undefined;
  const names = type.filter((t): t is string => typeof t === 'string');
  return names.find((t) => t !== 'null') ?? names[0];
}
