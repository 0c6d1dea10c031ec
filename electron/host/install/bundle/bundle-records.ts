import { readFile, mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { BundleValueSchema } from '../../../../shared/model/bundle.js';
import { SerialQueue, tempPathFor } from '../../serial-queue.js';

/**
 * What the host keeps about each installed bundle, by server name, in
 * `bundle-installs.json` in the data folder: which bundle and version, where
 * its files are, the settings the person gave (plain ones as values, to show
 * again on update; sensitive ones only as what Platform.encryptSecret
 * returned), and the command line it installed, so its secrets are only ever
 * handed to that command line.
 */

const LaunchSchema = z.object({
  command: z.string(),
  args: z.array(z.string()),
  env: z.record(z.string(), z.string()),
});

export const BundleRecordSchema = z.object({
  id: z.string(),
  version: z.string(),
  /** The installed files (`<data>/bundles/<server>/<slot>`). */
  dir: z.string(),
  installedAt: z.number(),
  values: z.record(z.string(), BundleValueSchema),
  /** Sensitive settings, as stored by the Platform (never the secret in clear, unless the platform only obfuscates). */
  secrets: z.record(z.string(), z.string()),
  /** The command line as written to the configuration (sensitive settings as placeholders). */
  launch: LaunchSchema,
});
export type BundleRecord = z.infer<typeof BundleRecordSchema>;

const FileSchema = z.object({ version: z.literal(1), bundles: z.record(z.string(), BundleRecordSchema) });

export class BundleRecords {
  private readonly queue = new SerialQueue();
  private records: Map<string, BundleRecord> | undefined;

  constructor(readonly path: string) {}

  async get(server: string): Promise<BundleRecord | undefined> {
    return (await this.load()).get(server);
  }

  async all(): Promise<Map<string, BundleRecord>> {
    return new Map(await this.load());
  }

  async set(server: string, record: BundleRecord): Promise<void> {
    await this.queue.run(async () => {
      const records = await this.load();
      records.set(server, record);
      await this.write(records);
    });
  }

  async delete(server: string): Promise<void> {
    await this.queue.run(async () => {
      const records = await this.load();
      if (records.delete(server)) await this.write(records);
    });
  }

  /** An unreadable file means no records (the bundles' secrets are then asked for again on update). */
  private async load(): Promise<Map<string, BundleRecord>> {
    if (this.records) return this.records;
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readFile(this.path, 'utf8'));
    } catch {
      parsed = undefined;
    }
    const file = FileSchema.safeParse(parsed);
    this.records ??= new Map(file.success ? Object.entries(file.data.bundles) : []);
    return this.records;
  }

  private async write(records: Map<string, BundleRecord>): Promise<void> {
    const text = `${JSON.stringify({ version: 1, bundles: Object.fromEntries(records) }, null, 2)}\n`;
    await mkdir(dirname(this.path), { recursive: true });
    const temp = tempPathFor(this.path);
    await writeFile(temp, text, { encoding: 'utf8', mode: 0o600 });
    await rename(temp, this.path);
  }
}
