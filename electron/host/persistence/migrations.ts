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
  {
    version: 4,
    name: 'consent rules bound to server identity',
    // Rules get a scope and the identity of the server they were made for.
    // The "always allow" policies of version 2 were bound to a name only, so
    // they move over unbound (identity NULL): they are listed, never applied.
    // The audit gains the identity, the rule that allowed a call and the
    // server's annotations at the call (to show when they change).
    sql: `
      CREATE TABLE consent_rules (
        id TEXT PRIMARY KEY,
        server TEXT NOT NULL,
        scope TEXT NOT NULL,
        tool TEXT,
        conversation_id TEXT REFERENCES conversations(id) ON DELETE CASCADE,
        identity_hash TEXT,
        identity TEXT,
        created_at INTEGER NOT NULL
      );
      CREATE UNIQUE INDEX consent_rules_unique ON consent_rules (
        server, scope, COALESCE(tool, ''), COALESCE(conversation_id, ''), COALESCE(identity_hash, '')
      );
      INSERT INTO consent_rules (id, server, scope, tool, conversation_id, identity_hash, identity, created_at)
        SELECT id, server, 'tool', tool, NULL, NULL, NULL, created_at FROM tool_policies;
      DROP TABLE tool_policies;
      ALTER TABLE consent_audit ADD COLUMN identity_hash TEXT;
      ALTER TABLE consent_audit ADD COLUMN rule_id TEXT;
      ALTER TABLE consent_audit ADD COLUMN rule_scope TEXT;
      ALTER TABLE consent_audit ADD COLUMN annotations TEXT;
      CREATE INDEX consent_audit_by_tool ON consent_audit (server, tool, identity_hash, id);
    `,
  },
  {
    version: 5,
    name: 'branches, conversation settings and thinking tokens',
    // Every message gets the one before it on its branch (existing history is
    // one straight branch, in insertion order); the conversation remembers
    // the end of the branch it shows.
    sql: `
      ALTER TABLE messages ADD COLUMN parent_id TEXT;
      ALTER TABLE conversations ADD COLUMN head_id TEXT;
      ALTER TABLE conversations ADD COLUMN settings TEXT;
      ALTER TABLE conversations ADD COLUMN thinking_tokens INTEGER NOT NULL DEFAULT 0;
      UPDATE messages SET parent_id = (
        SELECT p.id FROM messages p
        WHERE p.conversation_id = messages.conversation_id AND p.seq < messages.seq
        ORDER BY p.seq DESC LIMIT 1
      );
      UPDATE conversations SET head_id = (
        SELECT m.id FROM messages m WHERE m.conversation_id = conversations.id ORDER BY m.seq DESC LIMIT 1
      );
      CREATE INDEX messages_by_parent ON messages(parent_id);
    `,
  },
  {
    version: 6,
    name: 'pinned tool definitions',
    // Per server identity, every tool's definition as pinned (first seen or
    // last accepted) and as last listed, with its mark; and each distinct
    // definition a tool was seen with, once (a server that flips its list
    // a thousand times a second adds one row per definition, not per flip).
    sql: `
      CREATE TABLE tool_pins (
        server TEXT NOT NULL,
        identity_hash TEXT NOT NULL,
        tool TEXT NOT NULL,
        pinned_digest TEXT,
        pinned_definition TEXT,
        seen_digest TEXT NOT NULL,
        seen_definition TEXT NOT NULL,
        status TEXT NOT NULL,
        since INTEGER NOT NULL,
        PRIMARY KEY (server, identity_hash, tool)
      );
      CREATE TABLE tool_pin_changes (
        server TEXT NOT NULL,
        identity_hash TEXT NOT NULL,
        tool TEXT NOT NULL,
        digest TEXT NOT NULL,
        seen_at INTEGER NOT NULL,
        PRIMARY KEY (server, identity_hash, tool, digest)
      );
    `,
  },
];
