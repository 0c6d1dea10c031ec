import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import type { JsonSchemaValidator } from '@modelcontextprotocol/client';
import { HostError } from '../errors.js';

const ajv = new AjvJsonSchemaValidator();
const cache = new WeakMap<object, JsonSchemaValidator<unknown>>();

/**
 * Parses tool arguments typed by a person (or passed to the CLI) and checks
 * them against the tool's inputSchema, so that a bad call is refused with a
 * precise reason before anything reaches the server.
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
  const check = validatorFor(inputSchema);
  const result = check(value);
  if (!result.valid) {
    throw new HostError(
      'invalid_arguments',
      `Arguments do not match the tool's input schema: ${result.errorMessage}`,
    );
  }
  return value as Record<string, unknown>;
}

function validatorFor(schema: Record<string, unknown>): JsonSchemaValidator<unknown> {
  let check = cache.get(schema);
  if (!check) {
    try {
      check = ajv.getValidator<unknown>(schema);
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
