import { join } from 'node:path';
import { HostError, describeError } from '../errors.js';
import type { Platform } from '../platform.js';
import { ConsentAudit } from './consent-audit.js';
import { ConsentRuleStore } from './consent-rule-store.js';
import { ConversationStore } from './conversation-store.js';
import { openDatabase } from './database.js';
import type { Db } from './database.js';
import { SettingsStore } from './settings-store.js';
import { ToolPinStore } from './tool-pin-store.js';

export const DATABASE_FILE_NAME = 'mcp-host.db';

/** The stores kept in the data folder: one database (conversations, rules, audit) and the settings file. */
export interface Stores {
  readonly db: Db;
  readonly conversations: ConversationStore;
  readonly rules: ConsentRuleStore;
  readonly audit: ConsentAudit;
  /** Pinned tool definitions per server identity. */
  readonly pins: ToolPinStore;
  readonly settings: SettingsStore;
}

export interface PersistenceOptions {
  platform: Platform;
  /** better_sqlite3.node built for Electron, when running inside Electron. */
  sqliteNativeBinding?: string | undefined;
  /** Runs once on every successful open, before anyone else sees the stores (e.g. marking interrupted turns). */
  onOpened?: ((stores: Stores) => void) | undefined;
}

/**
 * The host's persistence, opened once and handed to whoever needs it (chat,
 * consent, sampling, apps, install, the Servers view). It opens on first use,
 * so CLI commands that never chat never touch the database; a failed open
 * (e.g. the SQLite addon does not load) is reported and the next use tries again.
 */
export class Persistence {
  private opening: Promise<Stores> | undefined;

  constructor(private readonly options: PersistenceOptions) {}

  /** The stores, opening them on first use. */
  open(): Promise<Stores> {
    if (!this.opening) {
      const opening = this.init();
      this.opening = opening;
      opening.catch(() => {
        if (this.opening === opening) this.opening = undefined;
      });
    }
    return this.opening;
  }

  /** The settings (API key, base URL, registry URL, pinned tools). */
  async settings(): Promise<SettingsStore> {
    return (await this.open()).settings;
  }

  /** Closes the database; a later use opens it again. */
  async close(): Promise<void> {
    const opening = this.opening;
    this.opening = undefined;
    if (opening) (await opening.catch(() => undefined))?.db.close();
  }

  private async init(): Promise<Stores> {
    const { platform } = this.options;
    let db: Db;
    try {
      db = openDatabase(join(platform.userDataDir(), DATABASE_FILE_NAME), {
        nativeBinding: this.options.sqliteNativeBinding,
      });
    } catch (error) {
      throw new HostError('internal', `Could not open the conversation database: ${describeError(error)}`);
    }
    try {
      const settings = new SettingsStore(platform);
      await settings.load();
      const stores: Stores = {
        db,
        conversations: new ConversationStore(db),
        rules: new ConsentRuleStore(db),
        audit: new ConsentAudit(db),
        pins: new ToolPinStore(db),
        settings,
      };
      this.options.onOpened?.(stores);
      return stores;
    } catch (error) {
      db.close();
      throw error;
    }
  }
}
