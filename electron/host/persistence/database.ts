import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS } from './migrations.js';

export type Db = Database.Database;

export interface OpenDatabaseOptions {
  /**
   * Path of a better_sqlite3.node built for Electron's ABI. The npm-installed
   * addon is built for Node (headless shell, CLI, tests); the Electron shell
   * passes its own build here so that both work from one node_modules.
   */
  nativeBinding?: string | undefined;
}

/**
 * Opens (creating if needed) the host's SQLite database in WAL mode and
 * brings its schema up to date. WAL plus synchronous=NORMAL keeps every
 * committed transaction across a process kill (only an OS crash can lose the
 * last ones), which is what "a killed host loses at most the partial message"
 * needs.
 */
export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Db {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const db = new Database(file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}

/** Applies, in order and each in its own transaction, the migrations not yet recorded. */
export function migrate(db: Db): void {
  db.exec(
    'CREATE TABLE IF NOT EXISTS migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)',
  );
  const applied = new Set(
    db
      .prepare<[], { version: number }>('SELECT version FROM migrations')
      .all()
      .map((row) => row.version),
  );
  const record = db.prepare('INSERT INTO migrations (version, name, applied_at) VALUES (?, ?, ?)');
  for (const migration of MIGRATIONS) {
    if (applied.has(migration.version)) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      record.run(migration.version, migration.name, Date.now());
    })();
  }
}
