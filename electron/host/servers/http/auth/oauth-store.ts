import { z } from 'zod';
import type { Platform } from '../../../platform.js';
import { SerialQueue } from '../../../serial-queue.js';
import { EncryptedRecordsFile } from '../../../secrets/encrypted-records-file.js';

/**
 * What the host keeps about one remote server's OAuth sign-in: tokens, the
 * client registration at each authorization server, the cached discovery,
 * and secrets typed in the app (a pre-registered client's secret or private
 * key). Every record is encrypted as a whole through the Platform (the OS
 * keychain, Electron safeStorage) before it reaches the disk; the file
 * (`oauth-credentials.json` in the data folder) holds only what
 * `encryptSecret` returned. Nothing here is ever sent to the renderer or
 * written to a log.
 *
 * Credentials are bound to the server's URL (the protected resource): an
 * entry whose URL was changed no longer sees them. Tokens and registrations
 * carry the issuer that made them and are only handed back for that issuer.
 */

const TokensSchema = z.looseObject({
  access_token: z.string(),
  token_type: z.string(),
  refresh_token: z.string().optional(),
  scope: z.string().optional(),
  id_token: z.string().optional(),
  expires_in: z.number().optional(),
  issuer: z.string().optional(),
});
export type StoredTokens = z.infer<typeof TokensSchema>;

const ClientSchema = z.looseObject({
  client_id: z.string(),
  client_secret: z.string().optional(),
  issuer: z.string().optional(),
});

const MachineBindingSchema = z.object({
  /** Which credentials (grant, client ID, `oauth.issuer`: machine-binding.ts `credentialsKey`). */
  credentials: z.string(),
  issuer: z.string(),
  /** The origin of the token endpoint the first token came from. */
  tokenOrigin: z.string(),
});
/** The authorization server a machine grant's credentials belong to: the first one they got a token from. */
export type MachineBinding = z.infer<typeof MachineBindingSchema>;

export const OAuthRecordSchema = z.object({
  /** The protected resource these credentials belong to. */
  resource: z.string(),
  tokens: TokensSchema.optional(),
  /** When the access token expires, ms since the epoch (from `expires_in` at save time). */
  expiresAt: z.number().optional(),
  /** Registrations (dynamic or metadata document) by issuer. */
  clients: z.record(z.string(), ClientSchema).default({}),
  /** How the client that holds `tokens` is known to its issuer. */
  clientKind: z.enum(['pre-registered', 'metadata-document', 'dynamic', 'client-credentials']).optional(),
  /**
   * The issuer a pre-registered client (client ID from the config) is bound
   * to when the config names none: the first one it was used with. No other
   * issuer gets its secret.
   */
  clientIssuer: z.string().optional(),
  /**
   * Where a machine grant's credentials (client secret, private-key
   * assertion, workload JWT) may go when the config names no issuer. No
   * other authorization server gets them.
   */
  machineBinding: MachineBindingSchema.optional(),
  /**
   * Origins the sign-in that got `tokens` reached (its authorization
   * server): a background renewal may reach these, nothing else but the MCP
   * server's own origin.
   */
  signInOrigins: z.array(z.string()).max(32).optional(),
  /** The loopback port a dynamic registration named, reused so the registered redirect URI stays valid. */
  redirectPort: z.number().int().min(1).max(65535).optional(),
  /** The SDK's discovery state (protected-resource and authorization-server metadata). */
  discovery: z.unknown().optional(),
  /** A pre-registered client's secret typed in the app. */
  clientSecret: z.string().optional(),
  /** A private_key_jwt key typed in the app (PEM). */
  privateKey: z.string().optional(),
});
export type OAuthRecord = z.infer<typeof OAuthRecordSchema>;

/** Where OAuth records live; tests and the conformance client use the in-memory one. */
export interface OAuthStore {
  get(server: string, resource: string): Promise<OAuthRecord>;
  /** Applies `change` to the record (created when missing) and persists it. */
  update(server: string, resource: string, change: (record: OAuthRecord) => void): Promise<OAuthRecord>;
  /** Forgets everything about a server (sign-out, removal). */
  delete(server: string): Promise<void>;
  /** A server was renamed: its credentials follow it. */
  rename(from: string, to: string): Promise<void>;
}

const emptyRecord = (resource: string): OAuthRecord => ({ resource, clients: {} });

/**
 * New tokens from `issuer` into the record: a refresh may omit the refresh
 * token or the ID token (the held ones are kept); the expiry is computed
 * now; a pre-registered client is bound to the issuer of its first tokens.
 */
export function mergeTokens(
  record: OAuthRecord,
  tokens: StoredTokens,
  issuer: string | undefined,
  kind: NonNullable<OAuthRecord['clientKind']>,
): void {
  const previous = record.tokens;
  record.tokens = {
    ...tokens,
    ...(issuer !== undefined ? { issuer } : {}),
    ...(tokens.refresh_token === undefined && previous?.refresh_token !== undefined
      ? { refresh_token: previous.refresh_token }
      : {}),
    ...(tokens.id_token === undefined && previous?.id_token !== undefined
      ? { id_token: previous.id_token }
      : {}),
  };
  if (typeof tokens.expires_in === 'number') record.expiresAt = Date.now() + tokens.expires_in * 1000;
  else delete record.expiresAt;
  record.clientKind = kind;
  if (kind === 'pre-registered' && issuer !== undefined) record.clientIssuer ??= issuer;
}

/**
 * Forgets part of a record: the SDK's `invalidateCredentials` scopes
 * (`client`: every registration), or `registrations`: the dynamic ones
 * only (a new loopback port would not match their redirect URI), keeping
 * the pre-registered client `keep`.
 */
export function forgetCredentials(
  record: OAuthRecord,
  scope: 'all' | 'client' | 'tokens' | 'discovery' | 'registrations',
  keep?: string,
): void {
  if (scope === 'all' || scope === 'tokens') {
    delete record.tokens;
    delete record.expiresAt;
  }
  if (scope === 'all' || scope === 'client') record.clients = {};
  if (scope === 'registrations')
    record.clients = Object.fromEntries(
      Object.entries(record.clients).filter(([, client]) => client.client_id === keep),
    );
  if (scope === 'all' || scope === 'client' || scope === 'registrations') delete record.redirectPort;
  if (scope === 'all' || scope === 'discovery') delete record.discovery;
}

/** The authorization-server metadata of the record's cached discovery. */
export function discoveredMetadata(record: OAuthRecord): Record<string, unknown> | undefined {
  const discovery = record.discovery as { authorizationServerMetadata?: Record<string, unknown> } | undefined;
  return discovery?.authorizationServerMetadata;
}

/** The issuer of the record's cached discovery. */
export function discoveredIssuer(record: OAuthRecord): string | undefined {
  const issuer = discoveredMetadata(record)?.issuer;
  return typeof issuer === 'string' ? issuer : undefined;
}

/** Records in memory only: the conformance client and unit tests. */
export class MemoryOAuthStore implements OAuthStore {
  protected readonly records = new Map<string, OAuthRecord>();

  get(server: string, resource: string): Promise<OAuthRecord> {
    const record = this.records.get(server);
    return Promise.resolve(record?.resource === resource ? structuredClone(record) : emptyRecord(resource));
  }

  async update(
    server: string,
    resource: string,
    change: (record: OAuthRecord) => void,
  ): Promise<OAuthRecord> {
    const record = await this.get(server, resource);
    change(record);
    this.records.set(server, record);
    await this.persist(server);
    return structuredClone(record);
  }

  async delete(server: string): Promise<void> {
    if (this.records.delete(server)) await this.persist(server);
  }

  async rename(from: string, to: string): Promise<void> {
    const record = this.records.get(from);
    if (!record) return;
    this.records.delete(from);
    this.records.set(to, record);
    await this.persist(from);
    await this.persist(to);
  }

  protected persist(_server: string): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * Records encrypted through the Platform in `oauth-credentials.json`. Read
 * once (lazily); every change is written in order, atomically (temporary
 * file, then rename), and the previous encrypted blob is forgotten (a
 * keychain entry is deleted) once the new one is on disk.
 */
export class FileOAuthStore extends MemoryOAuthStore {
  private readonly queue = new SerialQueue();
  private readonly file: EncryptedRecordsFile<OAuthRecord>;
  private loaded: Promise<void> | undefined;

  constructor(path: string, platform: Pick<Platform, 'encryptSecret' | 'decryptSecret' | 'forgetSecret'>) {
    super();
    this.file = new EncryptedRecordsFile(path, platform, OAuthRecordSchema);
  }

  override async get(server: string, resource: string): Promise<OAuthRecord> {
    await this.load();
    return super.get(server, resource);
  }

  override async update(
    server: string,
    resource: string,
    change: (record: OAuthRecord) => void,
  ): Promise<OAuthRecord> {
    await this.load();
    return this.queue.run(() => super.update(server, resource, change));
  }

  override async delete(server: string): Promise<void> {
    await this.load();
    await this.queue.run(() => super.delete(server));
  }

  override async rename(from: string, to: string): Promise<void> {
    await this.load();
    await this.queue.run(() => super.rename(from, to));
  }

  protected override async persist(server: string): Promise<void> {
    await this.file.write(new Map([[server, this.records.get(server)]]));
  }

  /** An unreadable file or entry costs a sign-in, never a crash. */
  private load(): Promise<void> {
    this.loaded ??= this.file.read().then((records) => {
      for (const [server, record] of records) this.records.set(server, record);
    });
    return this.loaded;
  }
}
