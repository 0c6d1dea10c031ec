/** The outcome of checking the "Arguments (JSON)" text before a call. */
export type ArgumentsCheck = { ok: true; json: string } | { ok: false; message: string };

/**
 * Catches malformed arguments in the renderer, so the person sees the JSON
 * parser's reason at once. Blank text means "no arguments" ({}). The host
 * still checks the object against the tool's inputSchema.
 */
export function checkArgumentsJson(text: string): ArgumentsCheck {
  if (text.trim() === '') return { ok: true, json: '{}' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, message: `Arguments are not valid JSON: ${reason}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, message: 'Arguments must be a JSON object, for example {"message": "hello"}' };
  }
  return { ok: true, json: text };
}
