import { describe, expect, it } from 'vitest';
import { analyzeUrl, decodePunycode, registrableDomain } from '../../../../shared/model/elicitation-url.js';

describe('URL analysis for URL-mode elicitation', () => {
  it('splits the URL around its registrable domain', () => {
    const a = analyzeUrl('https://login.accounts.example.com/authorize?x=1');
    expect(a).toMatchObject({ openable: true, punycode: false, domain: 'example.com', warnings: [] });
    expect(a.parts).toEqual({
      before: 'https://login.accounts.',
      domain: 'example.com',
      after: '/authorize?x=1',
    });
  });

  it('warns on punycode labels and shows what they imitate', () => {
    const a = analyzeUrl('https://xn--pple-43d.com/login');
    expect(a.punycode).toBe(true);
    expect(a.unicodeHostname).toBe('\u0430pple.com');
    expect(a.warnings.join(' ')).toContain('"\u0430pple.com" is really "xn--pple-43d.com"');
  });

  it('warns on a non-ASCII host name as written by the server', () => {
    const a = analyzeUrl('https://\u0430pple.com/');
    expect(a).toMatchObject({ punycode: true, hostname: 'xn--pple-43d.com', domain: 'xn--pple-43d.com' });
  });

  it('names the real site when a user name imitates one', () => {
    const a = analyzeUrl('https://bank.com@evil.example/pay');
    expect(a.domain).toBe('evil.example');
    expect(a.parts.domain).toBe('evil.example');
    expect(a.parts.before).toBe('https://bank.com@');
    expect(a.warnings.join(' ')).toContain('the site it opens is evil.example');
  });

  it('never opens anything but http(s), and warns on http', () => {
    expect(analyzeUrl('javascript:alert(1)').openable).toBe(false);
    expect(analyzeUrl('file:///etc/passwd').openable).toBe(false);
    expect(analyzeUrl('not a url').openable).toBe(false);
    expect(analyzeUrl('http://example.com').warnings).toEqual([
      'The link is not encrypted (http, not https).',
    ]);
  });

  it('keeps IP addresses whole and decodes RFC 3492 samples', () => {
    expect(registrableDomain('192.168.1.20')).toBe('192.168.1.20');
    expect(decodePunycode('mnchen-3ya')).toBe('m\u00fcnchen');
    expect(decodePunycode('ihqwcrb4cv8a8dqg056pqjye')).toBe(
      '\u4ed6\u4eec\u4e3a\u4ec0\u4e48\u4e0d\u8bf4\u4e2d\u6587',
    );
    expect(decodePunycode('@@@')).toBeUndefined();
  });
});
