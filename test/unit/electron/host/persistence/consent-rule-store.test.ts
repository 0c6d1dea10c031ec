import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { serverIdentity } from '../../../../../electron/host/consent/server-identity.js';
import { ConsentAudit } from '../../../../../electron/host/persistence/consent-audit.js';
import { ConsentRuleStore } from '../../../../../electron/host/persistence/consent-rule-store.js';
import { ConversationStore } from '../../../../../electron/host/persistence/conversation-store.js';
import { migrate, openDatabase } from '../../../../../electron/host/persistence/database.js';
import type { Db } from '../../../../../electron/host/persistence/database.js';
import { MIGRATIONS } from '../../../../../electron/host/persistence/migrations.js';
import { tempDir } from '../../../../helpers/servers.js';

const identity = serverIdentity({ command: 'node', args: ['/srv/files.js'] });

function store(): { db: Db; rules: ConsentRuleStore } {
  const db = openDatabase(':memory:');
  return { db, rules: new ConsentRuleStore(db) };
}

describe('ConsentRuleStore', () => {
  it('stores rules bound to an identity, once each, and revokes them', () => {
    const { db, rules } = store();
    const tool = rules.add({ server: 'files', identity, scope: 'tool', tool: 'read' });
    expect(rules.add({ server: 'files', identity, scope: 'tool', tool: 'read' }).id).toBe(tool.id);
    const server = rules.add({ server: 'files', identity, scope: 'server', tool: 'ignored' });
    expect(server).toMatchObject({ scope: 'server', identity });
    expect(server.tool).toBeUndefined();
    expect(rules.list()).toEqual({ rules: [server, tool] });
    rules.revoke(tool.id);
    expect(() => {
      rules.revoke(tool.id);
    }).toThrow(/No such rule/);
    expect(rules.revokeScope('files', 'server')).toBe(1);
    expect(rules.list().rules).toEqual([]);
    db.close();
  });

  it('a conversation rule names its conversation and goes away with it', () => {
    const { db, rules } = store();
    const conversations = new ConversationStore(db);
    const c = conversations.create('Planning');
    const rule = rules.add({
      server: 'files',
      identity,
      scope: 'conversation',
      tool: 'read',
      conversationId: c.id,
    });
    expect(rule).toMatchObject({ conversationId: c.id, conversationTitle: 'Planning' });
    expect(() => rules.add({ server: 'files', identity, scope: 'conversation', tool: 'read' })).toThrow(
      /needs a conversation/,
    );
    conversations.delete(c.id);
    expect(rules.list().rules).toEqual([]);
    db.close();
  });

  it('moves the unbound "always allow" policies of schema 2 over as rules that never apply', () => {
    const file = join(tempDir(), 'old.db');
    const old = new Database(file);
    old.exec(
      'CREATE TABLE migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)',
    );
    for (const m of MIGRATIONS.filter((m) => m.version <= 2)) {
      old.exec(m.sql);
      old.prepare('INSERT INTO migrations VALUES (?, ?, ?)').run(m.version, m.name, 0);
    }
    old.prepare('INSERT INTO tool_policies VALUES (?, ?, ?, ?)').run('p1', 'files', 'read', 1234);
    old
      .prepare(
        'INSERT INTO consent_audit (time, server, tool, arguments_digest, decision) VALUES (1, ?, ?, ?, ?)',
      )
      .run('files', 'read', 'ab', 'always_allow');
    migrate(old);
    const rules = new ConsentRuleStore(old);
    expect(rules.list()).toEqual({
      rules: [{ id: 'p1', server: 'files', scope: 'tool', tool: 'read', createdAt: 1234 }],
    });
    expect(rules.applicable()).toHaveLength(1);
    // The old trail is still readable.
    expect(new ConsentAudit(old).audit(10)).toMatchObject([{ decision: 'always_allow', server: 'files' }]);
    old.close();
  });

  it('a damaged row makes the whole store untrusted: listed problem, nothing applicable, no new rules', () => {
    const { db, rules } = store();
    rules.add({ server: 'files', identity, scope: 'server' });
    db.prepare(
      "INSERT INTO consent_rules (id, server, scope, identity_hash, identity, created_at) VALUES ('x', 'files', 'everything-forever', ?, ?, 0)",
    ).run(identity.hash, JSON.stringify(identity.parts));
    const listed = rules.list();
    expect(listed.problem).toMatch(/1 stored rule is damaged/);
    expect(listed.rules).toHaveLength(1);
    expect(rules.applicable()).toEqual([]);
    expect(() => rules.add({ server: 'files', identity, scope: 'tool', tool: 'read' })).toThrow(
      /No rule was saved/,
    );
    db.close();
  });

  it('a row whose identity does not hash to its recorded hash is damaged (a widened rule is refused)', () => {
    const { db, rules } = store();
    const rule = rules.add({ server: 'files', identity, scope: 'server' });
    const other = serverIdentity({ command: 'node', args: ['/srv/evil.js'] });
    db.prepare('UPDATE consent_rules SET identity = ? WHERE id = ?').run(
      JSON.stringify(other.parts),
      rule.id,
    );
    expect(rules.list().problem).toMatch(/damaged/);
    expect(rules.applicable()).toEqual([]);
    db.prepare('UPDATE consent_rules SET identity = ? WHERE id = ?').run('{not json', rule.id);
    expect(rules.applicable()).toEqual([]);
    db.close();
  });

  it('a database from a newer version: no rule applies, and Settings is told why; a missing table too', () => {
    const { db, rules } = store();
    rules.add({ server: 'files', identity, scope: 'server' });
    db.prepare('INSERT INTO migrations VALUES (?, ?, ?)').run(999, 'from the future', 0);
    expect(rules.list().problem).toMatch(/newer version of the app \(schema 999/);
    expect(rules.applicable()).toEqual([]);
    db.exec('DROP TABLE consent_rules');
    expect(rules.list()).toMatchObject({ rules: [], problem: expect.stringMatching(/could not be read/) });
    expect(rules.applicable()).toEqual([]);
    db.close();
  });
});

describe('ConsentAudit', () => {
  it('keeps the rule that allowed a call and the claims at the last call of a tool, per identity', () => {
    const db = openDatabase(':memory:');
    const audit = new ConsentAudit(db);
    expect(audit.lastAnnotations('files', identity.hash, 'read')).toBeUndefined();
    audit.record({
      server: 'files',
      tool: 'read',
      args: {},
      decision: 'policy_allow',
      identityHash: identity.hash,
      rule: { id: 'r1', scope: 'read-only' },
      annotations: { readOnlyHint: true },
    });
    audit.record({ server: 'files', tool: 'read', args: {}, decision: 'user_call', identityHash: 'other' });
    expect(audit.lastAnnotations('files', identity.hash, 'read')).toEqual({ readOnlyHint: true });
    expect(audit.lastAnnotations('files', 'other', 'read')).toEqual({});
    expect(audit.audit(10)).toMatchObject([
      { decision: 'user_call', identityHash: 'other' },
      { decision: 'policy_allow', rule: { id: 'r1', scope: 'read-only' }, identityHash: identity.hash },
    ]);
    db.close();
  });
});
