import { describe, expect, it } from 'vitest';
import { parseRequestHead } from '../../../../../../../../electron/host/servers/stdio/sandbox/network/request-head.js';

describe('proxy request heads', () => {
  it('reads CONNECT host:port, IPv6 included', () => {
    expect(parseRequestHead('CONNECT api.example.com:443 HTTP/1.1\r\nHost: api.example.com:443')).toEqual({
      via: 'connect',
      host: 'api.example.com',
      port: 443,
    });
    expect(parseRequestHead('CONNECT [::1]:8080 HTTP/1.1')).toMatchObject({ host: '[::1]', port: 8080 });
  });

  it('turns an absolute-URI request into the origin form, without proxy headers, closing after the answer', () => {
    const target = parseRequestHead(
      'GET http://example.com:8080/a?b=1 HTTP/1.1\r\nHost: example.com:8080\r\nProxy-Authorization: Basic x\r\nConnection: keep-alive',
    );
    expect(target).toMatchObject({ via: 'http', host: 'example.com', port: 8080 });
    if (target.via !== 'http') throw new Error('not http');
    expect(target.head.toString()).toBe(
      'GET /a?b=1 HTTP/1.1\r\nHost: example.com:8080\r\nConnection: close\r\n\r\n',
    );
  });

  it('refuses what it cannot check, with one line', () => {
    expect(() => parseRequestHead('CONNECT example.com HTTP/1.1')).toThrow('CONNECT needs host:port');
    expect(() => parseRequestHead('CONNECT example.com:99999 HTTP/1.1')).toThrow('not a port number');
    expect(() => parseRequestHead('CONNECT a b:1 HTTP/1.1')).toThrow('not an HTTP proxy request');
    expect(() => parseRequestHead('GET /relative HTTP/1.1')).toThrow('absolute http:// URL');
    expect(() => parseRequestHead('GET http://u:p@example.com/ HTTP/1.1')).toThrow('user names');
  });
});
