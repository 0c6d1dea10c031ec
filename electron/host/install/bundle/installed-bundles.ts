import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isStdioConfig } from '../../../../shared/model/config.js';
import type { StdioServerConfig } from '../../../../shared/model/config.js';
import { HostError, describeError } from '../../errors.js';
import type { Platform } from '../../platform.js';
import type { ConfigStore } from '../../servers/config/config-store.js';
import type { ServerManager } from '../../servers/server-manager.js';
import { settingReferences } from '../../servers/stdio/setting-references.js';
import { BundleRecords } from './bundle-records.js';
import type { BundleRecord } from './bundle-records.js';

/** What each bundle-installed server owns (record, files, stored secrets) and who may use them. */

export interface InstalledBundlesOptions {
  /** `<data>/bundles`: one folder per server. */
  root: string;
  /** `<data>/bundle-installs.json`. */
  recordsFile: string;
  platform: Pick<Platform, 'decryptSecret' | 'forgetSecret'>;
  servers: ServerManager;
  store: ConfigStore;
}

export class InstalledBundles {
  readonly records: BundleRecords;

  constructor(private readonly options: InstalledBundlesOptions) {
    this.records = new BundleRecords(options.recordsFile);
  }

  /** Removes a bundle-installed server: its entry, its files and its secrets. */
  async uninstall(name: string): Promise<void> {
    const record = await this.records.get(name);
    const entry = this.options.store.servers()[name];
    if (!record && !(entry && isStdioConfig(entry) && entry.bundle))
      throw new HostError('not_found', `"${name}" was not installed from a bundle`);
    if (this.options.servers.has(name)) await this.options.servers.remove(name);
    await rm(join(this.options.root, name), { recursive: true, force: true });
    await this.forgetSecrets(Object.values(record?.secrets ?? {}));
    await this.records.delete(name);
  }

  /**
   * Bundles whose entry left the configuration some other way (the file
   * editor, another program): their files and secrets go too. Nothing is
   * touched while the file is invalid (its entries are unknown then).
   */
  async forgetOrphans(): Promise<void> {
    if (!this.options.store.state.ok) return;
    for (const [name, record] of await this.records.all()) {
      const entry = this.options.store.servers()[name];
      if (entry && isStdioConfig(entry) && entry.bundle?.id === record.id) continue;
      await rm(join(this.options.root, name), { recursive: true, force: true }).catch(() => undefined);
      await this.forgetSecrets(Object.values(record.secrets));
      await this.records.delete(name);
    }
  }

  /** Whether a server was installed from a bundle (its removal is an uninstall). */
  async isBundle(name: string): Promise<boolean> {
    const entry = this.options.store.servers()[name];
    return (
      (entry !== undefined && isStdioConfig(entry) && entry.bundle !== undefined) ||
      (await this.records.get(name)) !== undefined
    );
  }

  /** The installed record of the bundle `id` under the server's name, if any. */
  async sameBundle(serverName: string, id: string): Promise<BundleRecord | undefined> {
    const record = await this.records.get(serverName);
    const entry = this.options.store.servers()[serverName];
    if (!record || record.id !== id) return undefined;
    // The record counts only while the entry it made is still there.
    return entry && isStdioConfig(entry) && entry.bundle?.id === record.id ? record : undefined;
  }

  /**
   * The secrets a bundle entry's `${user_config.KEY}` references stand for,
   * decrypted for one spawn. Only for the command line the bundle installed:
   * an entry edited since then (another command, other arguments or
   * environment) gets none, so a changed entry cannot carry them elsewhere.
   */
  async secretsFor(name: string, config: StdioServerConfig): Promise<Record<string, string>> {
    const wanted = new Set(
      [config.command, ...(config.args ?? []), ...Object.values(config.env ?? {})].flatMap(settingReferences),
    );
    if (wanted.size === 0 || config.bundle === undefined) return {};
    const record = await this.records.get(name);
    if (!record || record.id !== config.bundle.id)
      throw new HostError(
        'config_invalid',
        `Server "${name}": its bundle settings are missing; install the bundle again`,
      );
    if (!sameLaunch(record.launch, config))
      throw new HostError(
        'denied',
        `Server "${name}" was changed after it was installed from its bundle, so its secret settings are not given to it; update or reinstall the bundle`,
      );
    const secrets: Record<string, string> = {};
    for (const key of wanted) {
      const stored = record.secrets[key];
      if (stored === undefined) continue;
      try {
        secrets[key] = await this.options.platform.decryptSecret(stored);
      } catch (error) {
        throw new HostError(
          'config_invalid',
          `Server "${name}": a secret setting cannot be read (${describeError(error)}); update the bundle to enter it again`,
        );
      }
    }
    return secrets;
  }

  /** After an update: the old version's folder and the secrets nothing uses any more. */
  async dropReplaced(previous: BundleRecord, dir: string, kept: readonly string[]): Promise<void> {
    if (previous.dir !== dir) await rm(previous.dir, { recursive: true, force: true }).catch(() => undefined);
    await this.forgetSecrets(
      Object.entries(previous.secrets)
        .filter(([key]) => !kept.includes(key))
        .map(([, value]) => value),
    );
  }

  /** Stored secrets nothing uses any more; a platform that cannot forget one is not an error. */
  async forgetSecrets(stored: readonly string[]): Promise<void> {
    for (const value of stored) await this.options.platform.forgetSecret(value).catch(() => undefined);
  }
}

function sameLaunch(launch: BundleRecord['launch'], config: StdioServerConfig): boolean {
  const sorted = (env: Record<string, string>) =>
    JSON.stringify(Object.entries(env).sort(([a], [b]) => (a < b ? -1 : 1)));
  return (
    launch.command === config.command &&
    JSON.stringify(launch.args) === JSON.stringify(config.args ?? []) &&
    sorted(launch.env) === sorted(config.env ?? {})
  );
}
