import { z } from 'zod';
import { HostError } from '../errors.js';
import type { Platform } from '../platform.js';
import { SerialQueue } from '../serial-queue.js';
import { EncryptedRecordsFile } from './encrypted-records-file.js';

/**
 * Secret values of server entries (an API key an installed server needs in
 * its environment, a token in a header), kept out of the configuration
 * file: the entry holds `${secret:NAME}` and the value lives here, each
 * server's table encrypted as a whole through the Platform (OS keychain,
 * Electron safeStorage) in `server-secrets.json` in the data folder. Values
 * are put in place only when the server is started; they never reach the
 * renderer or a log.
 */

/** `${secret:NAME}` in an env value, argument or header value. */
const REFERENCE = /\$\{secret:([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The reference an entry holds for a secret stored under `key`. */
export const secretReference = (key: string): string => `\${secret:${key}}`;

/** The secret names a text refers to. */
export function secretReferences(text: string): string[] {
  return [...new Set([...text.matchAll(REFERENCE)].map((match) => match[1] ?? ''))];
}

/**
 * Replaces every `${secret:NAME}` with the server's stored value. A
 * reference to a value that is not stored is an error naming it (never an
 * empty string), so the person knows to enter it again.
 */
export function expandSecrets(
  text: string,
  secrets: Readonly<Record<string, string>>,
  server: string,
  where: string,
): string {
  return text.replace(REFERENCE, (_whole, key: string) => {
    const value = secrets[key];
    if (value === undefined) {
      throw new HostError(
        'config_invalid',
        `Server "${server}" ${where} uses \${secret:${key}}, but no secret ${key} is stored for it; install it again or edit it`,
      );
    }
    return value;
  });
}

export const SERVER_SECRETS_FILE_NAME = 'server-secrets.json';

const TableSchema = z.record(z.string(), z.string());

/** Secrets per server name. */
export interface ServerSecrets {
  get(server: string): Promise<Record<string, string>>;
  /** Replaces the server's whole table (an empty one forgets it). */
  set(server: string, secrets: Readonly<Record<string, string>>): Promise<void>;
  delete(server: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
}

/**
 * The file-backed store (encrypted-records-file.ts): read once (lazily),
 * every change written in order. An unreadable file or entry costs the
 * values, never a crash.
 */
export class FileServerSecrets implements ServerSecrets {
  private readonly queue = new SerialQueue();
  private readonly tables = new Map<string, Record<string, string>>();
  private readonly file: EncryptedRecordsFile<Record<string, string>>;
  private loaded: Promise<void> | undefined;

  constructor(path: string, platform: Pick<Platform, 'encryptSecret' | 'decryptSecret' | 'forgetSecret'>) {
    this.file = new EncryptedRecordsFile(path, platform, TableSchema);
  }

  async get(server: string): Promise<Record<string, string>> {
    await this.load();
    return { ...(this.tables.get(server) ?? {}) };
  }

  async set(server: string, secrets: Readonly<Record<string, string>>): Promise<void> {
    await this.load();
    await this.queue.run(async () => {
      if (Object.keys(secrets).length > 0) this.tables.set(server, { ...secrets });
      else this.tables.delete(server);
      await this.persist([server]);
    });
  }

  async delete(server: string): Promise<void> {
    await this.load();
    await this.queue.run(async () => {
      if (this.tables.delete(server)) await this.persist([server]);
    });
  }

  async rename(from: string, to: string): Promise<void> {
    await this.load();
    await this.queue.run(async () => {
      const table = this.tables.get(from);
      if (!table) return;
      this.tables.delete(from);
      this.tables.set(to, table);
      await this.persist([from, to]);
    });
  }

  private async persist(changed: readonly string[]): Promise<void> {
    await this.file.write(new Map(changed.map((server) => [server, this.tables.get(server)])));
  }

  private load(): Promise<void> {
    this.loaded ??= this.file.read().then((tables) => {
      for (const [server, table] of tables) this.tables.set(server, table);
    });
    return this.loaded;
  }
}
