/**
 * Numbered schema migrations, applied in order and recorded in the
 * `migrations` table. Never edit a released migration: add the next number.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'conversations and messages',
    sql: `
      CREATE TABLE conversations (
        id TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        input_tokens INTEGER NOT NULL DEFAULT 0,
        output_tokens INTEGER NOT NULL DEFAULT 0,
        cache_creation_tokens INTEGER NOT NULL DEFAULT 0,
        cache_read_tokens INTEGER NOT NULL DEFAULT 0,
        cost_usd REAL NOT NULL DEFAULT 0
      );
      CREATE TABLE messages (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        turn_id TEXT NOT NULL,
        role TEXT NOT NULL,
        blocks TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        stop_reason TEXT,
        usage TEXT,
        model TEXT,
        search_text TEXT NOT NULL
      );
      CREATE INDEX messages_by_conversation ON messages(conversation_id, seq);
      CREATE TABLE tool_results (
        tool_use_id TEXT PRIMARY KEY,
        conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        content TEXT NOT NULL,
        structured_content TEXT
      );
      CREATE VIRTUAL TABLE messages_fts USING fts5(
        search_text, content='messages', content_rowid='seq', tokenize='unicode61'
      );
      CREATE TRIGGER messages_ai AFTER INSERT ON messages BEGIN
        INSERT INTO messages_fts(rowid, search_text) VALUES (new.seq, new.search_text);
      END;
      CREATE TRIGGER messages_ad AFTER DELETE ON messages BEGIN
        INSERT INTO messages_fts(messages_fts, rowid, search_text) VALUES ('delete', old.seq, old.search_text);
      END;
    `,
  },
  {
    version: 2,
    name: 'tool policies and consent audit',
    sql: `
      CREATE TABLE tool_policies (
        id TEXT PRIMARY KEY,
        server TEXT NOT NULL,
        tool TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        UNIQUE (server, tool)
      );
      CREATE TABLE consent_audit (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        time INTEGER NOT NULL,
        server TEXT NOT NULL,
        tool TEXT NOT NULL,
        arguments_digest TEXT NOT NULL,
        decision TEXT NOT NULL,
        conversation_id TEXT
      );
    `,
  },
  {
    version: 3,
    name: 'the turn running in each conversation',
    // Set when a turn starts, cleared when it ends; one still set at startup
    // belongs to a host that died mid-turn, and the turn is marked interrupted.
    sql: `ALTER TABLE conversations ADD COLUMN running_turn TEXT;`,
  },
];
