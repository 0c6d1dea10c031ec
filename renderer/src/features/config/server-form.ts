import { StdioServerInputSchema } from '../../../../shared/model/config.js';
import type { StdioServerInput } from '../../../../shared/model/config.js';

/** The "Add server" form as typed. */
export interface ServerFormValues {
  readonly name: string;
  readonly command: string;
  /** One argument per line. */
  readonly args: string;
  /** One KEY=VALUE per line. */
  readonly env: string;
  readonly cwd: string;
}

export type ServerFormField = keyof ServerFormValues;
export type ServerFormErrors = Partial<Record<ServerFormField, string>>;

export const EMPTY_SERVER_FORM: ServerFormValues = { name: '', command: '', args: '', env: '', cwd: '' };

const lines = (text: string): string[] => text.split(/\r?\n/);

/**
 * Turns the form into the contract's StdioServerInput, checked with the same
 * schema the host uses, or into one message per field for inline feedback.
 */
export function parseServerForm(
  values: ServerFormValues,
): { ok: true; input: StdioServerInput } | { ok: false; errors: ServerFormErrors } {
  const errors: ServerFormErrors = {};
  const args = lines(values.args)
    .map((line) => line.trim())
    .filter((line) => line !== '');

  const env: Record<string, string> = {};
  lines(values.env).forEach((line, index) => {
    if (line.trim() === '' || errors.env) return;
    const eq = line.indexOf('=');
    const key = line.slice(0, Math.max(eq, 0)).trim();
    if (eq < 0 || key === '') errors.env = `Line ${index + 1}: write KEY=VALUE`;
    else if (key in env) errors.env = `Line ${index + 1}: ${key} is set twice`;
    else env[key] = line.slice(eq + 1);
  });

  const cwd = values.cwd.trim();
  const parsed = StdioServerInputSchema.safeParse({
    name: values.name,
    command: values.command,
    args,
    env,
    cwd: cwd === '' ? undefined : cwd,
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if (!isField(field) || errors[field] !== undefined) continue;
      const key = issue.path[1];
      const inner = issue.code === 'invalid_key' ? issue.issues[0]?.message : undefined;
      errors[field] = typeof key === 'string' && inner !== undefined ? `${key}: ${inner}` : issue.message;
    }
  }
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, input: parsed.data };
}

const FIELDS: readonly string[] = ['name', 'command', 'args', 'env', 'cwd'];
const isField = (key: unknown): key is ServerFormField => typeof key === 'string' && FIELDS.includes(key);
