import { readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { Platform } from '../platform.js';
import { tempPathFor } from '../serial-queue.js';

const FileSchema = z.object({ version: z.literal(1), servers: z.record(z.string(), z.string()) });

/**
 * A file of one record per server, each encrypted as a whole through the
 * Platform (OS keychain, Electron safeStorage): the file holds only what
 * `encryptSecret` returned. Used by the OAuth credentials and the servers'
 * stored secrets. Writes are atomic (temporary file, then rename) and the
 * blob a record replaced is forgotten (a keychain entry deleted) once the
 * new file is on disk. The caller serializes writes.
 */
export class EncryptedRecordsFile<T> {
  /** The encrypted blob on disk per server. */
  private readonly stored = new Map<string, string>();

  constructor(
    private readonly path: string,
    private readonly platform: Pick<Platform, 'encryptSecret' | 'decryptSecret' | 'forgetSecret'>,
    private readonly schema: z.ZodType<T>,
  ) {}

  /**
   * Every record that decrypts and matches the schema. An unreadable file
   * or entry (a keychain entry that is gone, a blob from another machine)
   * is left out, never a crash: it costs that record only.
   */
  async read(): Promise<Map<string, T>> {
    const records = new Map<string, T>();
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(this.path, 'utf8'));
    } catch {
      return records;
    }
    const file = FileSchema.safeParse(json);
    if (!file.success) return records;
    for (const [server, blob] of Object.entries(file.data.servers)) {
      try {
        const record = this.schema.safeParse(JSON.parse(await this.platform.decryptSecret(blob)));
        if (record.success) {
          records.set(server, record.data);
          this.stored.set(server, blob);
        }
      } catch {
        // Left out, as above.
      }
    }
    return records;
  }

  /** Writes the records of the `changed` servers (undefined: removed), then forgets the blobs they replaced. */
  async write(changed: ReadonlyMap<string, T | undefined>): Promise<void> {
    const previous = [...changed.keys()].flatMap((server) => {
      const blob = this.stored.get(server);
      return blob !== undefined ? [blob] : [];
    });
    for (const [server, record] of changed) {
      if (record !== undefined)
        this.stored.set(server, await this.platform.encryptSecret(JSON.stringify(record)));
      else this.stored.delete(server);
    }
    const text = `${JSON.stringify({ version: 1, servers: Object.fromEntries(this.stored) }, null, 2)}\n`;
    await mkdir(dirname(this.path), { recursive: true });
    const temp = tempPathFor(this.path);
    await writeFile(temp, text, { encoding: 'utf8', mode: 0o600 });
    await rename(temp, this.path);
    const kept = new Set(this.stored.values());
    for (const blob of previous) {
      if (!kept.has(blob)) await this.platform.forgetSecret(blob).catch(() => undefined);
    }
  }
}
