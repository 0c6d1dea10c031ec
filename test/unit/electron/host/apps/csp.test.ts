import { describe, expect, it } from 'vitest';
import { buildAppCsp, refusalOf } from '../../../../../electron/host/apps/csp.js';

const directive = (policy: string, name: string) =>
  policy
    .split('; ')
    .find((d) => d.startsWith(`${name} `))
    ?.slice(name.length + 1);

describe('the CSP of an MCP App', () => {
  it('is the spec’s restrictive default when nothing is declared', () => {
    const { policy, refused, accepted } = buildAppCsp(undefined);
    expect(directive(policy, 'default-src')).toBe("'none'");
    expect(directive(policy, 'script-src')).toBe("'self' 'unsafe-inline'");
    expect(directive(policy, 'style-src')).toBe("'self' 'unsafe-inline'");
    expect(directive(policy, 'img-src')).toBe("'self' data:");
    expect(directive(policy, 'media-src')).toBe("'self' data:");
    expect(directive(policy, 'connect-src')).toBe("'none'");
    expect(directive(policy, 'frame-src')).toBe("'none'");
    expect(directive(policy, 'object-src')).toBe("'none'");
    expect(directive(policy, 'base-uri')).toBe("'self'");
    expect(directive(policy, 'form-action')).toBe("'none'");
    expect(policy).not.toContain('report-uri');
    expect(refused).toEqual([]);
    expect(accepted).toEqual({});
  });

  it('adds exactly the declared origins to their directives', () => {
    const { policy, accepted } = buildAppCsp(
      {
        connectDomains: ['https://api.weather.com', 'wss://realtime.service.com'],
        resourceDomains: ['https://cdn.jsdelivr.net', 'https://*.cloudflare.com'],
        frameDomains: ['https://www.youtube.com'],
        baseUriDomains: ['https://cdn.example.com'],
      },
      { reportUri: 'http://127.0.0.1:9/csp-report/x' },
    );
    expect(directive(policy, 'connect-src')).toBe('https://api.weather.com wss://realtime.service.com');
    const resources = 'https://cdn.jsdelivr.net https://*.cloudflare.com';
    expect(directive(policy, 'script-src')).toBe(`'self' 'unsafe-inline' ${resources}`);
    expect(directive(policy, 'img-src')).toBe(`'self' data: ${resources}`);
    expect(directive(policy, 'font-src')).toBe(`'self' ${resources}`);
    expect(directive(policy, 'frame-src')).toBe('https://www.youtube.com');
    expect(directive(policy, 'base-uri')).toBe('https://cdn.example.com');
    expect(directive(policy, 'report-uri')).toBe('http://127.0.0.1:9/csp-report/x');
    expect(accepted.connectDomains).toHaveLength(2);
  });

  it('refuses malformed entries instead of loosening the policy', () => {
    const hostile = [
      '*',
      'https:',
      "'unsafe-eval'",
      'data:',
      'blob:',
      'javascript:alert(1)',
      'https://a.example; script-src *',
      'https://a.example, https://b.example',
      'https://a.example https://b.example',
      'https://*',
      'https://*.*.example.com',
      'ftp://files.example.com',
      'https://example.com:99999',
      "https://example.com/'x'",
      '',
    ];
    const { policy, refused } = buildAppCsp({ connectDomains: hostile, resourceDomains: hostile });
    expect(refused).toHaveLength(hostile.length * 2);
    expect(directive(policy, 'connect-src')).toBe("'none'");
    expect(directive(policy, 'script-src')).toBe("'self' 'unsafe-inline'");
    expect(policy.split('; ').filter((d) => d.startsWith('script-src'))).toHaveLength(1);
    expect(policy).not.toContain('unsafe-eval');
  });

  it("refuses the host's own origins", () => {
    const forbidden = ['http://127.0.0.1:4000', 'http://127.0.0.1:4001'];
    expect(refusalOf('http://127.0.0.1:4000', forbidden)).toMatch(/own origin/);
    expect(refusalOf('http://127.0.0.1:4001/view/x', forbidden)).toMatch(/own origin/);
    expect(refusalOf('http://127.0.0.1:4002', forbidden)).toBeNull();
    const { policy } = buildAppCsp(
      { connectDomains: ['http://127.0.0.1:4000'] },
      { forbiddenOrigins: forbidden },
    );
    expect(directive(policy, 'connect-src')).toBe("'none'");
  });

  it('keeps a declared path and port and drops duplicates', () => {
    const { policy } = buildAppCsp({
      resourceDomains: ['https://cdn.example.com:8443/npm/', 'https://cdn.example.com:8443/npm/'],
    });
    expect(directive(policy, 'style-src')).toBe("'self' 'unsafe-inline' https://cdn.example.com:8443/npm/");
  });
});
