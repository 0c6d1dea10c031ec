import { byTransport, isStdioConfig } from '../../../../shared/model/config.js';
import type { HttpServerConfig, OAuthConfig, ServerConfig } from '../../../../shared/model/config.js';
import type { HttpServerInput, ServerInput } from '../../../../shared/model/server-input.js';
import type { SandboxConfig, SandboxListKey } from '../../../../shared/model/sandbox.js';
import { SANDBOX_LIST_KEYS } from '../../../../shared/model/sandbox.js';
import type { LaunchRequest } from '../../platform.js';
import { envReferences } from './env-references.js';

/** Keys that describe how a server is reached; everything else in an entry is kept on edit. */
const TRANSPORT_KEYS = new Set(['type', 'command', 'args', 'env', 'cwd', 'url', 'headers', 'oauth']);

/** The keys of an entry's `oauth` block that the edit form owns; the others (grant, dpop, …) are kept. */
const FORM_OAUTH_KEYS = new Set(['clientId', 'scopes']);

/**
 * The stored entry as the edit form shows it. `clientSecretStored` says
 * whether the host holds a client secret for this server (the secret itself
 * is never part of the form's input).
 */
export function inputOf(name: string, config: ServerConfig, clientSecretStored = false): ServerInput {
  return byTransport<ServerInput>(config, {
    stdio: (config) => ({
      transport: 'stdio',
      name,
      command: config.command,
      args: config.args ?? [],
      env: config.env ?? {},
      ...(config.cwd !== undefined ? { cwd: config.cwd } : {}),
    }),
    http: (config) => ({
      transport: 'http',
      name,
      url: config.url,
      ...(config.type !== undefined ? { type: config.type } : {}),
      headers: config.headers ?? {},
      ...(config.oauth !== undefined || clientSecretStored
        ? {
            oauth: {
              clientId: config.oauth?.clientId ?? '',
              clientSecret: '',
              clearClientSecret: false,
              clientSecretStored,
              scopes: (config.oauth?.scopes ?? []).join(' '),
            },
          }
        : {}),
    }),
  });
}

/** The form's values laid over the previous entry, keeping its other keys (disabled, disabledTools, timeouts…). */
export function mergeInput(previous: ServerConfig | undefined, input: ServerInput): ServerConfig {
  const kept = Object.fromEntries(Object.entries(previous ?? {}).filter(([key]) => !TRANSPORT_KEYS.has(key)));
  if (input.transport === 'stdio') {
    const cwd = input.cwd?.trim();
    return {
      ...kept,
      command: input.command,
      args: input.args,
      ...(Object.keys(input.env).length > 0 ? { env: input.env } : {}),
      ...(cwd !== undefined && cwd !== '' ? { cwd } : {}),
    };
  }
  const oauth = mergeOAuth(
    previous !== undefined && !isStdioConfig(previous) ? previous.oauth : undefined,
    input.oauth,
  );
  return {
    ...kept,
    ...(input.type !== undefined ? { type: input.type } : {}),
    url: input.url,
    ...(Object.keys(input.headers).length > 0 ? { headers: input.headers } : {}),
    ...(oauth !== undefined ? { oauth } : {}),
  };
}

/**
 * The form's client id and scopes laid over the stored `oauth` block, keeping
 * its other keys (grant, an `${env:}` client secret, dpop, …). No form
 * section (an older client, the CLI): the block stays as it is. A block left
 * empty is dropped. The typed client secret never lands here: see
 * {@link clientSecretChange}.
 */
export function mergeOAuth(
  previous: OAuthConfig | undefined,
  form: HttpServerInput['oauth'],
): OAuthConfig | undefined {
  if (form === undefined) return previous;
  const kept = Object.fromEntries(
    Object.entries(previous ?? {}).filter(([key]) => !FORM_OAUTH_KEYS.has(key)),
  );
  const clientId = form.clientId.trim();
  const scopes = [...new Set(form.scopes.split(/\s+/).filter((scope) => scope !== ''))];
  const next: OAuthConfig = {
    ...kept,
    ...(clientId !== '' ? { clientId } : {}),
    ...(scopes.length > 0 ? { scopes } : {}),
  };
  return Object.keys(next).length > 0 ? next : undefined;
}

/** What the form asks of the stored client secret; the secret goes to encrypted storage, never the file. */
export type ClientSecretChange = { kind: 'keep' } | { kind: 'set'; secret: string } | { kind: 'clear' };

/**
 * The form's write-only client secret as a change to the stored one: a typed
 * secret replaces it, "Forget" clears it, an empty field keeps it. A typed
 * secret wins over "Forget" (the person typed a new one after forgetting).
 */
export function clientSecretChange(input: ServerInput): ClientSecretChange {
  if (input.transport !== 'http' || input.oauth === undefined) return { kind: 'keep' };
  if (input.oauth.clientSecret !== '') return { kind: 'set', secret: input.oauth.clientSecret };
  return input.oauth.clearClientSecret ? { kind: 'clear' } : { kind: 'keep' };
}

/**
 * What the launch confirmation shows: for a stdio entry the command line,
 * folder and env variables with their values as stored (secrets are stored
 * as references); for a remote one the destination, the
 * header names and the host variables its `${env:NAME}` references send there.
 */
export function launchOf(name: string, config: ServerConfig): LaunchRequest {
  return byTransport<LaunchRequest>(config, {
    http: (config) => {
      const headers = config.headers ?? {};
      return {
        kind: 'remote',
        name,
        url: config.url,
        destination: destinationOf(config.url),
        headerNames: Object.keys(headers),
        headers: Object.entries(headers).map(([key, value]) => ({ name: key, value })),
        sentVariables: [...new Set(sentTexts(config).flatMap(envReferences))],
      };
    },
    stdio: (config) => ({
      kind: 'stdio',
      name,
      command: config.command,
      args: config.args ?? [],
      cwd: config.cwd,
      envNames: Object.keys(config.env ?? {}),
      env: Object.entries(config.env ?? {}).map(([key, value]) => ({ name: key, value })),
    }),
  });
}

/**
 * Whether `next` starts something the person has not approved yet: a new
 * server; for a local one a different command, arguments, folder, or env
 * (names or values: a changed value may point the server elsewhere); for a
 * remote one a different address or headers.
 */
export function needsLaunchConsent(previous: ServerConfig | undefined, next: ServerConfig): boolean {
  if (!previous) return true;
  return JSON.stringify(launchIdentity(previous)) !== JSON.stringify(launchIdentity(next));
}

/** The parts of an entry that decide what runs or where data goes. */
function launchIdentity(config: ServerConfig): unknown {
  return byTransport<unknown>(config, {
    stdio: (c) => ['stdio', c.command, c.args ?? [], c.cwd ?? null, sorted(c.env ?? {})],
    http: (c) => ['remote', c.url, c.type ?? null, sorted(c.headers ?? {}), oauthSent(c)],
  });
}

/**
 * The texts of a remote entry whose `${env:NAME}` references leave this
 * machine: the URL and headers go to the server; the OAuth secrets and
 * assertions go to authorization servers (which the server names) and to an
 * enterprise identity provider.
 */
function sentTexts(config: HttpServerConfig): string[] {
  return [config.url, ...Object.values(config.headers ?? {}), ...oauthSent(config)];
}

function oauthSent(config: HttpServerConfig): string[] {
  const oauth = config.oauth;
  if (oauth === undefined) return [];
  const idp = oauth.enterprise;
  return [
    oauth.clientSecret,
    oauth.privateKey,
    oauth.assertion,
    idp?.issuer,
    idp?.tokenEndpoint,
    idp?.clientSecret,
    idp?.idToken,
  ].filter((text): text is string => text !== undefined);
}

function sorted(table: Record<string, string>): [string, string][] {
  return Object.entries(table).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** "host:port" of a URL, with `${env:…}` in it left as written when it does not parse. */
function destinationOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** A copy of the entry without one key. */
export function withoutKey(config: ServerConfig, key: string): ServerConfig {
  return Object.fromEntries(Object.entries(config).filter(([k]) => k !== key)) as ServerConfig;
}

/** A change to a server's sandbox: on or off, and any of its lists replaced whole. */
export type SandboxChange = { sandboxed?: boolean | undefined } & {
  [K in SandboxListKey]?: string[] | undefined;
};

/**
 * The entry's `sandbox` after `change`: `enabled: false` only while it runs
 * unconfined, empty lists left out, other keys kept. Not checked here (see
 * sandboxConfigProblem): the result may be malformed.
 */
export function nextSandbox(
  previous: SandboxConfig | undefined,
  change: SandboxChange,
): Record<string, unknown> {
  const next = new Map<string, unknown>(Object.entries(previous ?? {}));
  if (change.sandboxed === true) next.delete('enabled');
  else if (change.sandboxed === false) next.set('enabled', false);
  for (const key of SANDBOX_LIST_KEYS) {
    const list = change[key];
    if (list === undefined) continue;
    if (list.length > 0) next.set(key, list);
    else next.delete(key);
  }
  return Object.fromEntries(next);
}
