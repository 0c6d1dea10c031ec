import { HttpServerInputSchema } from '../../../shared/model/server-input.js';
import type { RemoteTransport, ServerInput } from '../../../shared/model/server-input.js';
import { EMPTY_SERVER_FORM, parseServerForm } from './server-form.js';
import type { ServerFormValues } from './server-form.js';

/** The add/edit form: a local (stdio) or a remote server, as typed. */
export interface ServerEntryFormValues extends ServerFormValues {
  readonly transport: 'stdio' | 'http';
  readonly url: string;
  /** "" = automatic (Streamable HTTP, falling back to SSE). */
  readonly type: '' | RemoteTransport;
  /** One "Name: value" per line. */
  readonly headers: string;
}

export type ServerEntryField = Exclude<keyof ServerEntryFormValues, 'transport' | 'type'> | 'type';
export type ServerEntryErrors = Partial<Record<ServerEntryField, string>>;

export const EMPTY_ENTRY_FORM: ServerEntryFormValues = {
  ...EMPTY_SERVER_FORM,
  transport: 'stdio',
  url: '',
  type: '',
  headers: '',
};

/** The stored entry as form values (for editing). */
export function entryFormOf(input: ServerInput): ServerEntryFormValues {
  if (input.transport === 'stdio') {
    return {
      ...EMPTY_ENTRY_FORM,
      name: input.name,
      command: input.command,
      args: input.args.join('\n'),
      env: Object.entries(input.env)
        .map(([k, v]) => `${k}=${v}`)
        .join('\n'),
      cwd: input.cwd ?? '',
    };
  }
  return {
    ...EMPTY_ENTRY_FORM,
    transport: 'http',
    name: input.name,
    url: input.url,
    type: input.type ?? '',
    headers: Object.entries(input.headers)
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n'),
  };
}

/**
 * Checks the form with the contract's own schemas (the host checks again)
 * and returns one message per field for inline feedback.
 */
export function parseServerEntryForm(
  values: ServerEntryFormValues,
): { ok: true; input: ServerInput } | { ok: false; errors: ServerEntryErrors } {
  if (values.transport === 'stdio') {
    const stdio = parseServerForm(values);
    return stdio.ok ? { ok: true, input: { transport: 'stdio', ...stdio.input } } : stdio;
  }
  const errors: ServerEntryErrors = {};
  const headers: Record<string, string> = {};
  values.headers.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === '' || errors.headers) return;
    const colon = line.indexOf(':');
    const key = line.slice(0, Math.max(colon, 0)).trim();
    if (colon < 0 || key === '') errors.headers = `Line ${String(index + 1)}: write Name: value`;
    else if (key in headers) errors.headers = `Line ${String(index + 1)}: ${key} is set twice`;
    else headers[key] = line.slice(colon + 1).trim();
  });
  const parsed = HttpServerInputSchema.safeParse({
    name: values.name,
    url: values.url,
    ...(values.type !== '' ? { type: values.type } : {}),
    headers,
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if (field !== 'name' && field !== 'url' && field !== 'headers' && field !== 'type') continue;
      if (errors[field] !== undefined) continue;
      const key = issue.path[1];
      errors[field] = typeof key === 'string' ? `${key}: ${issue.message}` : issue.message;
    }
  }
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, input: { transport: 'http', ...parsed.data } };
}
