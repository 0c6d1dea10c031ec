import { z } from 'zod';
import { BundleOriginSchema } from './bundle.js';
import { SandboxConfigSchema } from './sandbox.js';

/**
 * The configuration file uses the `mcpServers` shape shared by Claude Desktop,
 * Cursor and most MCP hosts. Unknown keys are kept (loose objects) so that a
 * file written by another tool survives a round trip through ours.
 */

/** Server names appear in the UI, the CLI and (later) in model tool names. */
export const ServerNameSchema = z
  .string()
  .trim()
  .min(1, 'Name is required')
  .max(64, 'Name must be at most 64 characters')
  .regex(/^[A-Za-z0-9][A-Za-z0-9 ._-]*$/, 'Use letters, digits, spaces, dots, dashes or underscores');

const EnvSchema = z.record(z.string(), z.string());

/**
 * Settings every server entry may carry, whatever its transport. All are
 * optional so that files written by other hosts load unchanged.
 */
const CommonServerFields = {
  disabled: z.boolean().optional(),
  /** Tools of this server that are never offered to the model nor callable. */
  disabledTools: z.array(z.string()).optional(),
  /** false: the server's skills (SEP-2640) are never offered to Claude (default: offered once verified). */
  skills: z.boolean().optional(),
  /** Per-request time limit in ms (default 60 000); progress notifications reset it. */
  timeout: z.number().int().positive().max(86_400_000).optional(),
  /** Upper bound in ms on a request that keeps reporting progress (default 600 000). */
  maxTotalTimeout: z.number().int().positive().max(86_400_000).optional(),
  /**
   * Time in ms the server has to complete the MCP handshake (default 120 000,
   * enough for a first `npx -y` run that downloads the package).
   */
  connectTimeout: z.number().int().positive().max(3_600_000).optional(),
  /** Restart automatically with backoff after a crash (default true). */
  autoRestart: z.boolean().optional(),
  /** Folders exposed to the server as roots: file:// URIs only, none by default. */
  roots: z.array(z.string().regex(/^file:\/\//, 'Roots must be file:// URIs')).optional(),
};

/**
 * The CPU priority of a local server's processes: `lower` (the default) lets
 * the app come first when the machine is busy; `normal` runs it as any program.
 */
export const ServerPrioritySchema = z.enum(['lower', 'normal']);
export type ServerPriority = z.infer<typeof ServerPrioritySchema>;

export const StdioServerConfigSchema = z.looseObject({
  type: z.literal('stdio').optional(),
  command: z.string().trim().min(1, 'Command is required'),
  args: z.array(z.string()).optional(),
  env: EnvSchema.optional(),
  cwd: z.string().optional(),
  /** Installed from an MCP bundle: which one (the host keeps its files and settings). */
  bundle: BundleOriginSchema.optional(),
  /** The OS sandbox it runs in (shared/model/sandbox.ts); absent: sandboxed with the default policy. */
  sandbox: SandboxConfigSchema.optional(),
  /** The CPU priority it runs at; absent: `lower`. */
  priority: ServerPrioritySchema.optional(),
  ...CommonServerFields,
});
export type StdioServerConfig = z.infer<typeof StdioServerConfigSchema>;

/** A value that names a variable of the host's environment instead of holding a secret: `${env:NAME}`. */
export const EnvReferenceSchema = z
  .string()
  .regex(
    /^\$\{env:[A-Za-z_][A-Za-z0-9_]*\}$/,
    'Write a secret here only as ${env:NAME}; secrets typed in the app are stored encrypted',
  );

/** Enterprise-managed authorization: where and how the ID token is exchanged for a grant (RFC 8693). */
export const EnterpriseIdpSchema = z.strictObject({
  /** The identity provider's issuer; its token endpoint is discovered unless given. */
  issuer: z.url({ protocol: /^https?$/, error: 'The identity provider must be an http(s) URL' }),
  tokenEndpoint: z
    .url({ protocol: /^https?$/, error: 'The token endpoint must be an http(s) URL' })
    .optional(),
  /** This app's client at the identity provider. */
  clientId: z.string().trim().min(1).max(512),
  clientSecret: EnvReferenceSchema.optional(),
  /** The person's OpenID Connect ID token from that provider, as `${env:NAME}`. */
  idToken: EnvReferenceSchema,
});
export type EnterpriseIdp = z.infer<typeof EnterpriseIdpSchema>;

/**
 * OAuth for a remote server (all optional: by default a server that answers
 * 401 is signed in to with the browser, the client registered by a Client ID
 * Metadata Document or Dynamic Client Registration). Secrets never live in
 * this file: a client secret or private key typed in the app is stored
 * encrypted through the Platform; here it may only be an `${env:NAME}`
 * reference.
 */
export const OAuthConfigSchema = z.looseObject({
  /** false: never sign in (a 401 is an error). */
  enabled: z.boolean().optional(),
  /** A client registered beforehand with the authorization server. */
  clientId: z.string().trim().min(1).max(512).optional(),
  clientSecret: EnvReferenceSchema.optional(),
  /** Scopes to ask for; default: the server's challenge, else what the authorization server supports. */
  scopes: z
    .array(z.string().regex(/^[\x21\x23-\x5B\x5D-\x7E]+$/, 'Invalid scope'))
    .max(64)
    .optional(),
  /**
   * `authorization_code` (default): the person signs in in the browser.
   * `client_credentials`: machine to machine, with `clientId` and a secret or a private key.
   * `jwt_bearer`: workload identity federation (RFC 7523): the workload's own JWT (`assertion`) is the grant.
   * `enterprise`: enterprise-managed authorization (SEP-990): the company's identity provider exchanges
   *   the person's ID token for a grant (`enterprise`), which `clientId`/`clientSecret` redeem.
   */
  grant: z.enum(['authorization_code', 'client_credentials', 'jwt_bearer', 'enterprise']).optional(),
  /** jwt_bearer: the workload's JWT as `${env:NAME}`, read again at each token request. */
  assertion: EnvReferenceSchema.optional(),
  /** enterprise: the identity provider that vouches for the person. */
  enterprise: EnterpriseIdpSchema.optional(),
  /** How a pre-registered client proves itself at the token endpoint (default: what the server supports). */
  tokenEndpointAuthMethod: z
    .enum(['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'])
    .optional(),
  /** private_key_jwt: the PEM key as `${env:NAME}` (a key typed in the app is stored encrypted). */
  privateKey: EnvReferenceSchema.optional(),
  /** private_key_jwt signing algorithm (default ES256). */
  signingAlgorithm: z
    .string()
    .regex(/^[A-Z]{2}\d{3}$/)
    .optional(),
  /**
   * The only authorization server (issuer) this entry signs in at, in the browser or with a machine
   * grant; any other one the server names is refused. Without it the server names it, and a
   * pre-registered client is bound to the first issuer it is used with.
   */
  issuer: z.url({ protocol: /^https?$/, error: 'The issuer must be an http(s) URL' }).optional(),
  /** Sender-constrained tokens (DPoP, RFC 9449). */
  dpop: z.boolean().optional(),
  /** This server's Client ID Metadata Document URL, instead of the app's. */
  clientMetadataUrl: z
    .url({ protocol: /^https$/, error: 'The client metadata URL must be https://' })
    .optional(),
});
export type OAuthConfig = z.infer<typeof OAuthConfigSchema>;

export const HttpServerConfigSchema = z.looseObject({
  type: z.enum(['http', 'streamable-http', 'streamableHttp', 'sse']).optional(),
  url: z.url({ protocol: /^https?$/, error: 'URL must be http:// or https://' }),
  headers: z.record(z.string(), z.string()).optional(),
  oauth: OAuthConfigSchema.optional(),
  ...CommonServerFields,
});
export type HttpServerConfig = z.infer<typeof HttpServerConfigSchema>;

export const ServerConfigSchema = z.union([StdioServerConfigSchema, HttpServerConfigSchema], {
  error: 'Each server needs either "command" (a local stdio server) or "url" (a remote server)',
});
export type ServerConfig = z.infer<typeof ServerConfigSchema>;

/**
 * The transports an entry can name. The file format has no field for it (a
 * `command` is a local process, a `url` a remote server, as every host
 * writes it), so it is read once from the entry's shape, here; code that
 * treats transports differently goes through `transportOf` or `byTransport`,
 * and a new kind makes the compiler name every place that must handle it.
 */
export type TransportKind = 'stdio' | 'http';

/** An entry with its transport made explicit. */
export type TransportEntry =
  | { readonly kind: 'stdio'; readonly config: StdioServerConfig }
  | { readonly kind: 'http'; readonly config: HttpServerConfig };

export function transportOf(config: ServerConfig): TransportEntry {
  return hasCommand(config) ? { kind: 'stdio', config } : { kind: 'http', config };
}

// The schema's union is of loose objects, which `in` alone does not narrow.
const hasCommand = (config: ServerConfig): config is StdioServerConfig => 'command' in config;

/** One case per transport, chosen by the entry's kind (a missing case does not compile). */
export function byTransport<R>(
  config: ServerConfig,
  cases: { readonly [K in TransportKind]: (config: Extract<TransportEntry, { kind: K }>['config']) => R },
): R {
  const entry = transportOf(config);
  switch (entry.kind) {
    case 'stdio':
      return cases.stdio(entry.config);
    case 'http':
      return cases.http(entry.config);
    default:
      return unreachable(entry);
  }
}

/** The end of an exhaustive switch: reached only if a case is missing, which the compiler reports. */
export function unreachable(value: never): never {
  throw new Error(`Unhandled case: ${JSON.stringify(value)}`);
}

export const isStdioConfig = (c: ServerConfig): c is StdioServerConfig => transportOf(c).kind === 'stdio';

export const ConfigFileSchema = z.looseObject({
  mcpServers: z.record(ServerNameSchema, ServerConfigSchema).default({}),
});
export type ConfigFile = z.infer<typeof ConfigFileSchema>;

/**
 * Environment variables that let one program hijack another's loading. A
 * server added through the UI may not set them; see docs/security.md (Secrets).
 */
export const BLOCKED_ENV_NAMES: readonly string[] = [
  'LD_PRELOAD',
  'LD_LIBRARY_PATH',
  'LD_AUDIT',
  'DYLD_INSERT_LIBRARIES',
  'DYLD_LIBRARY_PATH',
  'DYLD_FRAMEWORK_PATH',
  'NODE_OPTIONS',
];

/** The names in an env table that may not be set (compared without case, as Windows does). */
export function blockedEnvNames(env: Readonly<Record<string, string>> | undefined): string[] {
  return Object.keys(env ?? {}).filter((key) => BLOCKED_ENV_NAMES.includes(key.toUpperCase()));
}

/** Why a blocked variable is refused, the same words on every path (form, raw JSON, import). */
export const blockedEnvMessage = (names: readonly string[]): string =>
  `${names.join(', ')} cannot be set: ${names.length === 1 ? 'it changes' : 'they change'} how programs load (blocked: ${BLOCKED_ENV_NAMES.join(', ')})`;

/** A stdio server as entered in the add/edit form. */
export const StdioServerInputSchema = z.object({
  name: ServerNameSchema,
  command: z.string().trim().min(1, 'Command is required').max(4096),
  args: z.array(z.string().max(32_768)).max(256).default([]),
  env: z
    .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'Invalid variable name'), z.string())
    .default({})
    .superRefine((env, ctx) => {
      const blocked = blockedEnvNames(env);
      if (blocked.length > 0) ctx.addIssue({ code: 'custom', message: blockedEnvMessage(blocked) });
    }),
  cwd: z.string().max(4096).optional(),
});
export type StdioServerInput = z.infer<typeof StdioServerInputSchema>;
