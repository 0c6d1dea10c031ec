import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../../../electron/host/canonical-json.js';
import { ConsentAudit, argumentsDigest } from '../../../../../electron/host/persistence/consent-audit.js';
import { ConversationStore } from '../../../../../electron/host/persistence/conversation-store.js';
import { openDatabase } from '../../../../../electron/host/persistence/database.js';
import { MIGRATIONS } from '../../../../../electron/host/persistence/migrations.js';
import { tempDir } from '../../../../helpers/servers.js';

describe('SQLite store', () => {
  it('creates the schema once in WAL mode and records every numbered migration', () => {
    const file = join(tempDir(), 'nested', 'host.db');
    const db = openDatabase(file);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    const versions = db
      .prepare<[], { version: number }>('SELECT version FROM migrations ORDER BY version')
      .all();
    expect(versions.map((v) => v.version)).toEqual(MIGRATIONS.map((m) => m.version));
    new ConversationStore(db).create('kept');
    db.close();
    const again = openDatabase(file);
    expect(new ConversationStore(again).list().map((c) => c.title)).toEqual(['kept']);
    again.close();
  });

  it('deleting a conversation removes its messages from search', () => {
    const db = openDatabase(':memory:');
    const store = new ConversationStore(db);
    const c = store.create();
    store.addMessage(c.id, { turnId: 't', role: 'user', blocks: [{ type: 'text', text: 'zebra crossing' }] });
    expect(store.list('zebra')).toHaveLength(1);
    store.delete(c.id);
    expect(store.list('zebra')).toEqual([]);
    expect(db.prepare('SELECT COUNT(*) AS n FROM messages').get()).toEqual({ n: 0 });
    db.close();
  });

  it('the audit keeps only a digest of the arguments', () => {
    const db = openDatabase(':memory:');
    const audit = new ConsentAudit(db);
    audit.record({ server: 's', tool: 't', args: { password: 'hunter2' }, decision: 'deny' });
    const rows = JSON.stringify(db.prepare('SELECT * FROM consent_audit').all());
    expect(rows).not.toContain('hunter2');
    expect(audit.audit(10)[0]?.argumentsDigest).toMatch(/^[0-9a-f]{64}$/);
    db.close();
  });

  it('canonical JSON ignores key order, so equal arguments have equal digests', () => {
    expect(canonicalJson({ b: [1, { d: 2, c: 3 }], a: 'x' })).toBe('{"a":"x","b":[1,{"c":3,"d":2}]}');
    expect(argumentsDigest({ a: 1, b: 2 })).toBe(argumentsDigest({ b: 2, a: 1 }));
    expect(argumentsDigest({ a: 1 })).not.toBe(argumentsDigest({ a: 2 }));
  });
});
