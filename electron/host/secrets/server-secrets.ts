import { z } from 'zod';
import { HostError } from '../errors.js';
import type { Platform } from '../platform.js';
import { SerialQueue } from '../serial-queue.js';
import type { ServerConfig } from '../../../shared/model/config.js';
import { serverIdentity } from '../consent/server-identity.js';
import { EncryptedRecordsFile } from './encrypted-records-file.js';
import { SecretBindingSchema, bindingIntact, bindingOf, sameDestination } from './secret-binding.js';
import type { SecretBinding } from './secret-binding.js';

/**
 * Secret values of server entries (an API key an installed server needs in
 * its environment, a token in a header), kept out of the configuration
 * file: the entry holds `${secret:NAME}` and the value lives here, each
 * server's table encrypted as a whole through the Platform (OS keychain,
 * Electron safeStorage) in `server-secrets.json` in the data folder. Each
 * table is bound to the entry it was entered for (secret-binding.ts has the
 * rule). Values are put in place only when the server is started; they
 * never reach the renderer or a log.
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

const ValuesSchema = z.record(z.string(), z.string());
const BoundTableSchema = z.object({ binding: SecretBindingSchema, values: ValuesSchema });
/** A record as stored: a bound table, or a table an earlier version stored under the server's name alone. */
const RecordSchema = z.union([BoundTableSchema, ValuesSchema]);
type BoundTable = z.infer<typeof BoundTableSchema>;
type StoredRecord = z.infer<typeof RecordSchema>;

const isBound = (record: StoredRecord): record is BoundTable =>
  'binding' in record && typeof record.binding === 'object';

/** The key of a bound table in the file: its configuration file and server name. */
const keyOf = (binding: Pick<SecretBinding, 'configPath' | 'server'>): string =>
  JSON.stringify([binding.configPath, binding.server]);

/**
 * What an install (install-service.ts) sees: the table for the entry it is
 * about to save under a name. It is held in memory and bound to that entry
 * when the entry is saved ({@link FileServerSecrets.reconcile} with `saved`);
 * an empty table withdraws it.
 */
export interface ServerSecrets {
  get(server: string): Promise<Record<string, string>>;
  set(server: string, secrets: Readonly<Record<string, string>>): Promise<void>;
}

/** A server entry the app itself has just saved (the form, an install, an import, a bundle). */
export interface SavedEntry {
  name: string;
  /** The name it had before, when an existing entry was edited (rule 3). */
  previous?: string | undefined;
}

/**
 * The file-backed store (encrypted-records-file.ts) of one host, whose
 * configuration file is `configPath`: read once (lazily), every change
 * written in order. Tables of other configuration files (the CLI's
 * `--config`) are kept but neither used nor forgotten here. An unreadable
 * file or entry costs the values, never a crash.
 */
export class FileServerSecrets implements ServerSecrets {
  private readonly queue = new SerialQueue();
  /** Every record by its key in the file (bound: keyOf; from an earlier version: the server name). */
  private readonly records = new Map<string, StoredRecord>();
  /** Tables of installs in progress, by server name (see ServerSecrets). */
  private readonly pending = new Map<string, Record<string, string>>();
  private readonly file: EncryptedRecordsFile<StoredRecord>;
  private loaded: Promise<void> | undefined;

  constructor(
    path: string,
    platform: Pick<Platform, 'encryptSecret' | 'decryptSecret' | 'forgetSecret'>,
    /** The absolute path of this host's configuration file. */
    private readonly configPath: string,
  ) {
    this.file = new EncryptedRecordsFile(path, platform, RecordSchema);
  }

  get(server: string): Promise<Record<string, string>> {
    return Promise.resolve({ ...(this.pending.get(server) ?? {}) });
  }

  set(server: string, secrets: Readonly<Record<string, string>>): Promise<void> {
    if (Object.keys(secrets).length > 0) this.pending.set(server, { ...secrets });
    else this.pending.delete(server);
    return Promise.resolve();
  }

  /**
   * The values `${secret:NAME}` stands for in this entry: the table bound to
   * this configuration file, name and identity, else none.
   */
  async valuesFor(server: string, config: ServerConfig): Promise<Record<string, string>> {
    await this.load();
    const key = keyOf({ configPath: this.configPath, server });
    const record = this.records.get(key);
    // The binding inside the encrypted record decides, not the file's plain key.
    if (!record || !isBound(record) || keyOf(record.binding) !== key) return {};
    return record.binding.identity.hash === serverIdentity(config).hash ? { ...record.values } : {};
  }

  /**
   * Brings the stored tables in line with the configuration as it now is
   * (`entries`, which must be valid: an invalid file says nothing about its
   * entries). `saved` is an entry the app has just written: an install's
   * table is bound to it, and an edited entry's table follows it (rules 3
   * and 4). Then every table of this configuration file whose entry is gone
   * or runs something else is forgotten (rule 2), and tables from an earlier
   * version are bound or forgotten (rule 5). The tables in memory change
   * first, so a failed write never leaves a value usable.
   */
  async reconcile(entries: Readonly<Record<string, ServerConfig>>, saved?: SavedEntry): Promise<void> {
    await this.load();
    await this.queue.run(async () => {
      const changed = new Set<string>();
      const put = (key: string, record: StoredRecord | undefined) => {
        if (record) this.records.set(key, record);
        else this.records.delete(key);
        changed.add(key);
      };
      if (saved) this.applySaved(entries, saved, put);
      for (const [key, record] of [...this.records]) {
        if (!isBound(record)) {
          // Rule 5: a table keyed by the server name alone.
          const entry = entries[key];
          put(key, undefined);
          if (entry) {
            const binding = bindingOf(this.configPath, key, entry);
            put(keyOf(binding), { binding, values: record });
          }
          continue;
        }
        const { binding } = record;
        if (key !== keyOf(binding) || !bindingIntact(binding)) {
          put(key, undefined);
          continue;
        }
        if (binding.configPath !== this.configPath) continue;
        const entry = entries[binding.server];
        if (!entry || serverIdentity(entry).hash !== binding.identity.hash) put(key, undefined);
      }
      if (changed.size > 0)
        await this.file.write(new Map([...changed].map((key) => [key, this.records.get(key)])));
    });
  }

  /** Rules 3 and 4 for one entry the app saved. */
  private applySaved(
    entries: Readonly<Record<string, ServerConfig>>,
    saved: SavedEntry,
    put: (key: string, record: StoredRecord | undefined) => void,
  ): void {
    const entry = entries[saved.name];
    if (!entry) return;
    const binding = bindingOf(this.configPath, saved.name, entry);
    if (saved.previous === undefined) {
      const values = this.pending.get(saved.name);
      this.pending.delete(saved.name);
      if (values) put(keyOf(binding), { binding, values });
      return;
    }
    const fromKey = keyOf({ configPath: this.configPath, server: saved.previous });
    const from = this.records.get(fromKey);
    if (!from || !isBound(from)) return;
    if (fromKey === keyOf(binding) && from.binding.identity.hash === binding.identity.hash) return;
    put(fromKey, undefined);
    if (sameDestination(from.binding.identity.parts, binding.identity.parts))
      put(keyOf(binding), { binding, values: from.values });
  }

  private load(): Promise<void> {
    this.loaded ??= this.file.read().then((records) => {
      for (const [key, record] of records) this.records.set(key, record);
    });
    return this.loaded;
  }
}
