import { z } from 'zod';

/** One tool call a scenario asks the client to make, with the exact arguments to send. */
const ToolCallSchema = z.object({
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()).default({}),
});

/**
 * What the suite passes in `MCP_CONFORMANCE_CONTEXT` (JSON): always the
 * scenario's `name`; the header scenarios add `toolCalls`; the auth
 * scenarios add credentials (client id and secret, private keys, identity
 * assertions…), kept as loose extra fields here so each auth scenario can
 * parse what it needs with its own schema (`authField`).
 */
export const ConformanceContextSchema = z.looseObject({
  name: z.string().optional(),
  toolCalls: z.array(ToolCallSchema).optional(),
  client_id: z.string().optional(),
  client_secret: z.string().optional(),
});

export type ConformanceContext = z.infer<typeof ConformanceContextSchema>;

/**
 * Parses the context the suite set, or an empty one when it set none.
 * Throws one clear line when it is not the JSON object the suite documents.
 */
export function readConformanceContext(text: string | undefined): ConformanceContext {
  if (text === undefined || text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('MCP_CONFORMANCE_CONTEXT is not valid JSON');
  }
  const parsed = ConformanceContextSchema.safeParse(value);
  if (!parsed.success) {
    throw new Error(`MCP_CONFORMANCE_CONTEXT is malformed: ${z.prettifyError(parsed.error)}`);
  }
  return parsed.data;
}

/** A field of the context validated with `schema` (for auth scenarios' own credentials). */
export function authField<S extends z.ZodType>(
  context: ConformanceContext,
  key: string,
  schema: S,
): z.infer<S> {
  const parsed = schema.safeParse(context[key]);
  if (!parsed.success) {
    throw new Error(
      `MCP_CONFORMANCE_CONTEXT.${key} is missing or malformed: ${z.prettifyError(parsed.error)}`,
    );
  }
  return parsed.data;
}
