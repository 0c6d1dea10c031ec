import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import type { JsonSchemaValidator } from '@modelcontextprotocol/client';
import { HostError } from '../errors.js';
import { isJsonObject } from '../json-object.js';

const ajv = new AjvJsonSchemaValidator();
const cache = new WeakMap<object, JsonSchemaValidator<unknown>>();

/**
 * Parses tool arguments typed by a person (or passed to the CLI) and checks
 * them against the tool's inputSchema, so that a bad call is refused with a
 * precise reason before anything reaches the server. A `null` given for a
 * property whose schema does not admit null means "not provided" and is
 * omitted first (omitNullArguments), so it is neither refused nor sent.
 */
export function parseToolArguments(
  json: string,
  inputSchema: Record<string, unknown>,
): Record<string, unknown> {
  const text = json.trim() === '' ? '{}' : json;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'parse error';
    throw new HostError('invalid_json', `Arguments are not valid JSON: ${reason}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HostError('invalid_arguments', 'Arguments must be a JSON object, like {"name": "value"}');
  }
  const args = omitNullArguments(value as Record<string, unknown>, inputSchema);
  const check = validatorFor(inputSchema);
  const result = check(args);
  if (!result.valid) {
    throw new HostError(
      'invalid_arguments',
      `Arguments do not match the tool's input schema: ${result.errorMessage}`,
    );
  }
  return args;
}

/**
 * Drops top-level arguments that are `null` where the property's schema
 * declares a `type` without "null": the 2026-07-28 revision treats such a
 * value as not provided (SEP-2243: no `Mcp-Param-*` header for it), models
 * often write `null` for an optional parameter they mean to leave out, and
 * checking before omitting would refuse a call the server accepts. A
 * property that admits null (or declares no type) keeps its null. Returns a
 * new object; the input is not changed.
 */
export function omitNullArguments(
  args: Record<string, unknown>,
  inputSchema: Record<string, unknown>,
): Record<string, unknown> {
  const properties = isJsonObject(inputSchema.properties) ? inputSchema.properties : {};
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    if (value === null && !admitsNull(properties[key])) continue;
    kept[key] = value;
  }
  return kept;
}

/** Whether a property schema accepts null; unknown or untyped schemas are assumed to. */
function admitsNull(schema: unknown): boolean {
  if (!isJsonObject(schema)) return true;
  const type = schema.type;
  if (typeof type === 'string') return type === 'null';
  if (Array.isArray(type)) return type.includes('null');
  return true;
}

function validatorFor(schema: Record<string, unknown>): JsonSchemaValidator<unknown> {
  let check = cache.get(schema);
  if (!check) {
    try {
      check = ajv.getValidator<unknown>(withoutRemoteRefs(schema) as Record<string, unknown>);
    } catch (error) {
      // A server's broken schema must not make its tool uncallable.
      const reason = error instanceof Error ? error.message : 'invalid schema';
      check = () => ({ valid: true, data: undefined, errorMessage: undefined });
      console.warn(`Ignoring an input schema that does not compile: ${reason}`);
    }
    cache.set(schema, check);
  }
  return check;
}

/**
 * A copy of `schema` in which every `$ref` that does not point into the
 * schema itself (`#…`) is dropped, leaving that subschema's other keywords.
 * A network `$ref` is never fetched (SEP-2106: a client MUST NOT dereference
 * one automatically; fetching would also let a server make the host call any
 * URL); what it stood for is simply not checked here, while every local
 * constraint still is. Depth-limited so a hostile, deeply nested schema
 * cannot exhaust the stack.
 */
export function withoutRemoteRefs(schema: unknown, depth = 0): unknown {
  if (depth > 64 || typeof schema !== 'object' || schema === null) return schema;
  if (Array.isArray(schema)) return schema.map((item) => withoutRemoteRefs(item, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if ((key === '$ref' || key === '$dynamicRef') && !(typeof value === 'string' && value.startsWith('#'))) {
      continue;
    }
    copy[key] = withoutRemoteRefs(value, depth + 1);
  }
  return copy;
}
