/**
 * SEP-2243 (2026-07-28): a tool may mark input properties with
 * `x-mcp-header: "<Name>"` so a Streamable HTTP client mirrors their values
 * into `Mcp-Param-<Name>` headers. A declaration that breaks the rules makes
 * the whole tool invalid, and a client MUST drop it (the SDK does) and SHOULD
 * say which tool and why (this file finds the why, for the server's log).
 */

const HEADER_KEY = 'x-mcp-header';
/** RFC 9110 `token`: no spaces, control characters or delimiters. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PERMITTED_TYPES = new Set(['string', 'integer', 'boolean']);
/** Keywords under which a declaration is not "statically reachable through properties". */
const UNREACHABLE = [
  'items',
  'prefixItems',
  'contains',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'patternProperties',
  'dependentSchemas',
  'oneOf',
  'anyOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  '$defs',
  'definitions',
];
const MAX_DEPTH = 32;

/** Why a tool's `x-mcp-header` declarations are invalid, or undefined when they are valid (or absent). */
export function headerDeclarationProblem(inputSchema: unknown): string | undefined {
  const seen = new Map<string, string>();
  const visit = (node: unknown, path: string, reachable: boolean, depth: number): string | undefined => {
    if (depth > MAX_DEPTH || typeof node !== 'object' || node === null || Array.isArray(node))
      return undefined;
    const schema = node as Record<string, unknown>;
    if (HEADER_KEY in schema) {
      const where = path === '' ? 'the schema root' : path;
      if (!reachable || path === '') {
        return `${where}: x-mcp-header is only permitted on properties reached through "properties"`;
      }
      const name = schema[HEADER_KEY];
      if (typeof name !== 'string' || name === '') return `${where}: x-mcp-header must be a non-empty string`;
      if (!TOKEN.test(name)) {
        return `${where}: x-mcp-header ${JSON.stringify(name)} is not a valid header name (no spaces, control characters or delimiters)`;
      }
      const type = typeof schema.type === 'string' ? schema.type : undefined;
      if (type === undefined || !PERMITTED_TYPES.has(type)) {
        return `${where}: x-mcp-header is only permitted on string, integer or boolean properties; got ${type ?? 'no type'}`;
      }
      const earlier = seen.get(name.toLowerCase());
      if (earlier !== undefined) return `x-mcp-header "${name}" is declared twice (also as "${earlier}")`;
      seen.set(name.toLowerCase(), name);
    }
    const properties = schema.properties;
    if (typeof properties === 'object' && properties !== null && !Array.isArray(properties)) {
      for (const [key, child] of Object.entries(properties)) {
        const problem = visit(
          child,
          path === '' ? `properties.${key}` : `${path}.${key}`,
          reachable,
          depth + 1,
        );
        if (problem !== undefined) return problem;
      }
    }
    for (const keyword of UNREACHABLE) {
      const sub = schema[keyword];
      if (typeof sub !== 'object' || sub === null) continue;
      const branches = Array.isArray(sub)
        ? sub
        : keyword === '$defs' ||
            keyword === 'definitions' ||
            keyword === 'patternProperties' ||
            keyword === 'dependentSchemas'
          ? Object.values(sub)
          : [sub];
      for (const branch of branches) {
        const problem = visit(branch, `${path}<${keyword}>`, false, depth + 1);
        if (problem !== undefined) return problem;
      }
    }
    return undefined;
  };
  return visit(inputSchema, '', true, 0);
}
