import { describe, expect, it } from 'vitest';
import {
  alwaysEntry,
  decideHost,
  patternMatches,
  resolvedDenial,
} from '../../../../../../../../electron/host/servers/stdio/sandbox/network/host-rules.js';
import type { HostRules } from '../../../../../../../../electron/host/servers/stdio/sandbox/network/host-rules.js';

const rules = (over: Partial<HostRules> = {}): HostRules => ({
  deny: [],
  allow: [],
  allowedOnce: new Set(),
  denied: new Set(),
  ...over,
});

describe('host patterns', () => {
  it('matches a name on any port, a name:port on that port, a wildcard on subdomains only', () => {
    expect(patternMatches('api.example.com', 'API.example.com.', 443)).toBe(true);
    expect(patternMatches('api.example.com', 'api.example.com', 8080)).toBe(true);
    expect(patternMatches('api.example.com:8443', 'api.example.com', 443)).toBe(false);
    expect(patternMatches('api.example.com:8443', 'api.example.com', 8443)).toBe(true);
    expect(patternMatches('*.example.com', 'a.b.example.com', 443)).toBe(true);
    expect(patternMatches('*.example.com', 'example.com', 443)).toBe(false);
    expect(patternMatches('*.example.com', 'evilexample.com', 443)).toBe(false);
    expect(patternMatches('example.com', 'example.com.evil.net', 443)).toBe(false);
  });

  it('saves "always" as the host for 80 and 443, host:port otherwise, and nothing for IPv6', () => {
    expect(alwaysEntry('API.example.com', 443)).toBe('api.example.com');
    expect(alwaysEntry('api.example.com', 5432)).toBe('api.example.com:5432');
    expect(alwaysEntry('::1', 443)).toBeUndefined();
  });
});

describe('the decision, in order', () => {
  it('denies what the configuration denies, even when also allowed', () => {
    const verdict = decideHost(
      rules({ deny: ['*.tracker.com'], allow: ['x.tracker.com'] }),
      'x.tracker.com',
      443,
    );
    expect(verdict).toEqual({ verdict: 'deny', reason: 'the host is in sandbox.denyHosts' });
  });

  it('denies loopback, private addresses and localhost without asking, unless exactly allowed', () => {
    for (const host of ['127.0.0.1', '10.0.0.5', '169.254.169.254', '[::1]', 'localhost', '0.0.0.0']) {
      expect(decideHost(rules(), host, 5432).verdict, host).toBe('deny');
    }
    // A wildcard or another port does not grant a private address.
    expect(decideHost(rules({ allow: ['127.0.0.1:8080'] }), '127.0.0.1', 5432).verdict).toBe('deny');
    expect(decideHost(rules({ allow: ['127.0.0.1:8080'] }), '127.0.0.1', 8080).verdict).toBe('allow');
    expect(decideHost(rules({ allow: ['10.0.0.5'] }), '10.0.0.5', 5432).verdict).toBe('allow');
  });

  it('allows what is allowed (or allowed once), asks about the rest, and remembers a denial', () => {
    expect(decideHost(rules({ allow: ['registry.npmjs.org'] }), 'registry.npmjs.org', 443)).toEqual({
      verdict: 'allow',
    });
    expect(decideHost(rules(), 'api.example.com', 443)).toEqual({ verdict: 'ask' });
    expect(
      decideHost(rules({ allowedOnce: new Set(['api.example.com:443']) }), 'api.example.com', 443),
    ).toEqual({
      verdict: 'allow',
    });
    expect(
      decideHost(rules({ allowedOnce: new Set(['api.example.com:443']) }), 'api.example.com', 80),
    ).toEqual({
      verdict: 'ask',
    });
    expect(
      decideHost(rules({ denied: new Set(['api.example.com:443']) }), 'api.example.com', 443).verdict,
    ).toBe('deny');
  });

  it('denies a name that resolves to a private address, unless exactly that name is allowed (DNS rebinding)', () => {
    expect(resolvedDenial(['*.example.com'], 'a.example.com', 443, ['93.184.216.34', '127.0.0.1'])).toBe(
      'a.example.com resolves to the private address 127.0.0.1',
    );
    expect(resolvedDenial([], 'a.example.com', 443, ['::ffff:10.0.0.1'])).toContain('private address');
    expect(resolvedDenial(['db.internal'], 'db.internal', 5432, ['10.0.0.7'])).toBeUndefined();
    expect(resolvedDenial([], 'example.com', 443, ['93.184.216.34'])).toBeUndefined();
  });
});
