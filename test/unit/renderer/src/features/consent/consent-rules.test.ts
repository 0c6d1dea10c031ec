import { describe, expect, it } from 'vitest';
import type { ConsentRule, ServerIdentity } from '../../../../../../shared/model/consent-rules.js';
import type { ServerSnapshot } from '../../../../../../shared/model/server.js';
import {
  describeIdentity,
  groupByServer,
  ruleStatus,
  serverRule,
} from '../../../../../../renderer/src/features/consent/consent-rules.js';

const identity = (hash: string): ServerIdentity => ({
  hash: hash.repeat(64).slice(0, 64),
  parts: { kind: 'stdio', command: 'npx', args: ['-y', 'my server'], envNames: ['TOKEN'], cwd: '/srv' },
});

const snapshot = (name: string, hash?: string): ServerSnapshot => ({
  name,
  transport: 'stdio',
  target: 'npx',
  status: 'connected',
  capabilities: { tools: true, resources: false, prompts: false, logging: false },
  tools: [],
  counts: { tools: 0, resources: 0, prompts: 0 },
  stderrTail: [],
  ...(hash !== undefined ? { identity: identity(hash) } : {}),
});

const rule = (extra: Partial<ConsentRule>): ConsentRule => ({
  id: 'r',
  server: 'files',
  scope: 'server',
  identity: identity('a'),
  createdAt: 0,
  ...extra,
});

describe('consent rule views', () => {
  it('says whether a rule applies to the server as configured now, and why not', () => {
    expect(ruleStatus(rule({}), snapshot('files', 'a'))).toBe('in-effect');
    expect(ruleStatus(rule({}), snapshot('files', 'b'))).toBe('changed');
    expect(ruleStatus(rule({}), undefined)).toBe('no-server');
    expect(ruleStatus(rule({ identity: undefined }), snapshot('files', 'a'))).toBe('unbound');
  });

  it('a server is trusted only by a rule bound to what it runs now', () => {
    const rules = [rule({ id: 'old', identity: identity('b') }), rule({ id: 'ro', scope: 'read-only' })];
    expect(serverRule(rules, snapshot('files', 'a'), 'server')).toBeUndefined();
    expect(serverRule(rules, snapshot('files', 'b'), 'server')?.id).toBe('old');
    expect(serverRule(rules, snapshot('files', 'a'), 'read-only')?.id).toBe('ro');
  });

  it('groups by server and describes identities in one line', () => {
    expect(
      groupByServer([rule({ id: '1', server: 'b' }), rule({ id: '2' }), rule({ id: '3', server: 'b' })]).map(
        ([server, rules]) => [server, rules.map((r) => r.id)],
      ),
    ).toEqual([
      ['b', ['1', '3']],
      ['files', ['2']],
    ]);
    expect(describeIdentity(identity('a').parts)).toBe('npx -y "my server" · env TOKEN · in /srv');
    expect(describeIdentity({ kind: 'remote', url: 'https://x.example/mcp' })).toBe('https://x.example/mcp');
  });
});
