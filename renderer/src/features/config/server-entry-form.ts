import { OAuthConfigSchema } from '../../../../shared/model/config.js';
import { HttpServerInputSchema } from '../../../../shared/model/server-input.js';
import type { RemoteTransport, ServerInput } from '../../../../shared/model/server-input.js';
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
  /** OAuth: a client registered beforehand with the authorization server. */
  readonly oauthClientId: string;
  /** Write-only: typed here, stored encrypted by the host, never shown again. */
  readonly oauthClientSecret: string;
  /** Space-separated scopes to ask for. */
  readonly oauthScopes: string;
  /** A client secret the host holds for this server: none, kept, or forgotten on save. */
  readonly oauthStoredSecret: 'none' | 'keep' | 'forget';
  /** Whether the stored entry has OAuth settings (so emptied fields are saved as removed). */
  readonly hadOAuth: boolean;
}

/** The fields a person types into (the stored-secret state and `hadOAuth` are not typed). */
export type ServerEntryField =
  Exclude<keyof ServerEntryFormValues, 'transport' | 'type' | 'oauthStoredSecret' | 'hadOAuth'> | 'type';
export type ServerEntryErrors = Partial<Record<ServerEntryField, string>>;

export const EMPTY_ENTRY_FORM: ServerEntryFormValues = {
  ...EMPTY_SERVER_FORM,
  transport: 'stdio',
  url: '',
  type: '',
  headers: '',
  oauthClientId: '',
  oauthClientSecret: '',
  oauthScopes: '',
  oauthStoredSecret: 'none',
  hadOAuth: false,
};

/** The OAuth fields of the form, the ones that go into the section. */
export const OAUTH_FIELDS = ['oauthClientId', 'oauthClientSecret', 'oauthScopes'] as const;

const OAUTH_FIELD_OF: Readonly<Record<string, (typeof OAUTH_FIELDS)[number]>> = {
  clientId: 'oauthClientId',
  clientSecret: 'oauthClientSecret',
  scopes: 'oauthScopes',
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
    ...(input.oauth !== undefined
      ? {
          oauthClientId: input.oauth.clientId,
          oauthScopes: input.oauth.scopes,
          oauthStoredSecret: input.oauth.clientSecretStored ? 'keep' : 'none',
          hadOAuth: true,
        }
      : {}),
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
  checkOAuth(values, errors);
  const oauth = oauthOf(values);
  const parsed = HttpServerInputSchema.safeParse({
    name: values.name,
    url: values.url,
    ...(values.type !== '' ? { type: values.type } : {}),
    headers,
    ...(oauth !== undefined ? { oauth } : {}),
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const [first, second] = issue.path;
      const field = first === 'oauth' && typeof second === 'string' ? OAUTH_FIELD_OF[second] : first;
      if (field === 'oauthClientId' || field === 'oauthClientSecret' || field === 'oauthScopes') {
        errors[field] ??= issue.message;
        continue;
      }
      if (field !== 'name' && field !== 'url' && field !== 'headers' && field !== 'type') continue;
      if (errors[field] !== undefined) continue;
      const key = issue.path[1];
      errors[field] = typeof key === 'string' ? `${key}: ${issue.message}` : issue.message;
    }
  }
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, input: { transport: 'http', ...parsed.data } };
}

/**
 * The form's OAuth section as the contract's input, or nothing when the
 * section is empty and the entry had none (so an entry without OAuth stays
 * without). The stored secret is never part of it: only whether to forget it.
 */
function oauthOf(values: ServerEntryFormValues) {
  const touched =
    values.hadOAuth ||
    values.oauthStoredSecret !== 'none' ||
    OAUTH_FIELDS.some((field) => values[field].trim() !== '');
  if (!touched) return undefined;
  return {
    clientId: values.oauthClientId,
    clientSecret: values.oauthClientSecret,
    clearClientSecret: values.oauthStoredSecret === 'forget',
    scopes: values.oauthScopes,
  };
}

const ScopeSchema = OAuthConfigSchema.shape.scopes.unwrap().element;
/** As many as the configuration file takes. */
const MAX_SCOPES = 64;

/** Checks the configuration will take: every scope a valid scope token, a secret only with a client id. */
function checkOAuth(values: ServerEntryFormValues, errors: ServerEntryErrors): void {
  const scopes = values.oauthScopes.split(/\s+/).filter((scope) => scope !== '');
  const bad = scopes.find((scope) => !ScopeSchema.safeParse(scope).success);
  if (bad !== undefined) errors.oauthScopes = `Not a valid scope: ${bad}`;
  else if (scopes.length > MAX_SCOPES) errors.oauthScopes = `At most ${String(MAX_SCOPES)} scopes`;
  if (values.oauthClientSecret !== '' && values.oauthClientId.trim() === '') {
    errors.oauthClientSecret = 'A client secret belongs to a client ID: enter the client ID too';
  }
}
