import { describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../../../../shared/model/config.js';
import type { ConsentRule, RuleScope } from '../../../../../shared/model/consent-rules.js';
import { matchRule } from '../../../../../electron/host/consent/rule-matching.js';
import type { CallToMatch } from '../../../../../electron/host/consent/rule-matching.js';
import { serverIdentity } from '../../../../../electron/host/consent/server-identity.js';

const original: ServerConfig = { command: 'node', args: ['/srv/files.js'], env: { TOKEN: 'x' } };
const identity = serverIdentity(original);

let ids = 0;
function rule(scope: RuleScope, extra: Partial<ConsentRule> = {}): ConsentRule {
  return { id: `r${String(++ids)}`, server: 'files', scope, identity, createdAt: 0, ...extra };
}

const call = (extra: Partial<CallToMatch> = {}): CallToMatch => ({
  server: 'files',
  identityHash: identity.hash,
  tool: 'read',
  readOnly: false,
  conversationId: 'c1',
  ...extra,
});

describe('matchRule', () => {
  it('each scope allows what it names and nothing more', () => {
    const tool = rule('tool', { tool: 'read' });
    expect(matchRule([tool], call())).toBe(tool);
    expect(matchRule([tool], call({ tool: 'write' }))).toBeUndefined();

    const conversation = rule('conversation', { tool: 'read', conversationId: 'c1' });
    expect(matchRule([conversation], call())).toBe(conversation);
    expect(matchRule([conversation], call({ conversationId: 'c2' }))).toBeUndefined();
    expect(matchRule([conversation], call({ tool: 'write' }))).toBeUndefined();

    const server = rule('server');
    expect(matchRule([server], call({ tool: 'anything' }))).toBe(server);
    expect(matchRule([server], call({ server: 'other' }))).toBeUndefined();
  });

  it('the read-only opt-in follows what the server claims now', () => {
    const readOnly = rule('read-only');
    expect(matchRule([readOnly], call({ readOnly: true }))).toBe(readOnly);
    // The same tool, now claiming it writes (or no longer claiming anything): asks.
    expect(matchRule([readOnly], call({ readOnly: false }))).toBeUndefined();
  });

  it('no rule applies once the program behind the name changes: command, arguments, env names or URL', () => {
    const rules = [rule('server'), rule('tool', { tool: 'read' }), rule('read-only')];
    const changed: ServerConfig[] = [
      { ...original, command: '/usr/bin/node' },
      { ...original, args: ['/srv/evil.js'] },
      { ...original, args: ['/srv/files.js', '--write'] },
      { ...original, env: { OTHER: 'x' } },
      { ...original, env: {} },
      { url: 'https://files.example.com/mcp' },
    ];
    for (const config of changed) {
      expect(
        matchRule(rules, call({ identityHash: serverIdentity(config).hash, readOnly: true })),
      ).toBeUndefined();
    }
    // A new value for the same variable is the same program: the rules still apply.
    const rotated = serverIdentity({ ...original, env: { TOKEN: 'y' } });
    expect(matchRule(rules, call({ identityHash: rotated.hash }))).toBeDefined();
  });

  it('a rule for another server name never applies, even with the same program', () => {
    expect(matchRule([rule('server', { server: 'files-2' })], call())).toBeUndefined();
  });

  it('an unbound rule (kept from a version that did not bind rules) never applies', () => {
    const { identity: _dropped, ...unbound } = rule('tool', { tool: 'read' });
    expect(matchRule([unbound], call())).toBeUndefined();
  });

  it('names the narrowest rule when several apply', () => {
    const server = rule('server');
    const tool = rule('tool', { tool: 'read' });
    const conversation = rule('conversation', { tool: 'read', conversationId: 'c1' });
    const readOnly = rule('read-only');
    expect(matchRule([readOnly, server, tool, conversation], call({ readOnly: true }))).toBe(conversation);
    expect(matchRule([readOnly, server, tool], call({ readOnly: true }))).toBe(tool);
    expect(matchRule([readOnly, server], call({ readOnly: true }))).toBe(server);
  });
});
