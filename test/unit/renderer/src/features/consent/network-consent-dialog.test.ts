import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { NetworkConsentDialog } from '../../../../../../renderer/src/features/consent/network-consent-dialog.js';
import type { ConsentRequestOf } from '../../../../../../shared/model/consent.js';
import { ConsentRequestSchema } from '../../../../../../shared/model/consent.js';

const request = (
  prompt: ConsentRequestOf<'network'>['prompt'],
  server = 'weather',
): ConsentRequestOf<'network'> => ({
  id: 'a'.repeat(22),
  kind: 'network',
  server,
  createdAt: 0,
  prompt,
});

const render = (r: ConsentRequestOf<'network'>): string =>
  renderToStaticMarkup(
    createElement(NetworkConsentDialog, { request: r, onAnswer: () => undefined, queued: 0, busy: false }),
  );

describe('the network question', () => {
  it('names the server and host:port and offers deny, always and once, in that order', () => {
    const html = render(
      request({ host: 'api.example.com', port: 443, via: 'connect', alwaysEntry: 'api.example.com' }),
    );
    expect(html).toContain('Network access');
    expect(html).toContain('weather');
    expect(html).toContain('api.example.com:443');
    expect(html).toContain('adds <span class="mono">api.example.com</span> to this server’s allowed hosts');
    const buttons = [...html.matchAll(/<button[^>]*>(?:<[^>]+>)*([^<]+)</g)].map((m) => m[1]);
    expect(buttons).toEqual(['Deny', 'Always for this server', 'Allow once']);
    expect(html).toMatch(/^<dialog aria-labelledby=/);
  });

  it('says when the request is plain HTTP and when "always" cannot be saved', () => {
    const html = render(request({ host: 'fe80::1', port: 80, via: 'http' }));
    expect(html).toContain('plain HTTP, not encrypted');
    expect(html).toContain('“Always” lasts until the server stops');
  });

  it('is a consent kind the renderer accepts from the host, with its three answers only', () => {
    expect(
      ConsentRequestSchema.safeParse(request({ host: 'api.example.com', port: 443, via: 'connect' })).success,
    ).toBe(true);
    expect(
      ConsentRequestSchema.safeParse(request({ host: 'api.example.com', port: 0, via: 'connect' })).success,
    ).toBe(false);
  });
});
