/**
 * Where an OAuth flow may go (issue 21, finding 7): which addresses count as
 * private, loopback or link-local, which endpoints are secure enough to get a
 * token, and how a URL is written to the log.
 */
import { describe, expect, it } from 'vitest';
import {
  addressClass,
  isLocalHost,
  isSecureOrLoopback,
  shownUrl,
} from '../../../../../../../electron/host/servers/http/auth/oauth-network.js';

describe('OAuth network policy', () => {
  it('classes loopback, private, link-local and public addresses, IPv4, IPv6 and mapped', () => {
    for (const ip of ['127.0.0.1', '127.9.9.9', '0.0.0.0', '::1', '::', '[::1]', '::ffff:127.0.0.1'])
      expect(addressClass(ip), ip).toBe('loopback');
    for (const ip of [
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '100.64.0.1',
      'fd00::1',
      'fc12::1',
    ])
      expect(addressClass(ip), ip).toBe('private');
    for (const ip of ['169.254.169.254', 'fe80::1', '::ffff:169.254.169.254'])
      expect(addressClass(ip), ip).toBe('link-local');
    for (const ip of ['8.8.8.8', '172.32.0.1', '172.15.0.1', '100.128.0.1', '2001:db8::1', '203.0.113.7'])
      expect(addressClass(ip), ip).toBe('public');
  });

  it('a host is local when any of its addresses is', async () => {
    const resolve = (name: string) =>
      Promise.resolve(name === 'mixed.test' ? ['203.0.113.7', '10.0.0.1'] : ['203.0.113.7']);
    expect(await isLocalHost('mixed.test', resolve)).toBe(true);
    expect(await isLocalHost('public.test', resolve)).toBe(false);
    expect(await isLocalHost('localhost')).toBe(true);
    expect(await isLocalHost('169.254.169.254')).toBe(true);
  });

  it('only https or plain http on loopback is a place for tokens', () => {
    expect(isSecureOrLoopback('https://auth.example.com/revoke')).toBe(true);
    expect(isSecureOrLoopback('http://127.0.0.1:8080/revoke')).toBe(true);
    expect(isSecureOrLoopback('http://localhost:8080/revoke')).toBe(true);
    expect(isSecureOrLoopback('http://[::1]:8080/revoke')).toBe(true);
    expect(isSecureOrLoopback('http://auth.example.com/revoke')).toBe(false);
    expect(isSecureOrLoopback('http://10.0.0.1/revoke')).toBe(false);
    expect(isSecureOrLoopback('ftp://auth.example.com/')).toBe(false);
    expect(isSecureOrLoopback('not a url')).toBe(false);
  });

  it('logs a URL as origin and path: no user info, query or fragment', () => {
    expect(shownUrl('https://user:pw@auth.example.com/token?code=abc&state=xyz#frag')).toBe(
      'https://auth.example.com/token',
    );
    expect(shownUrl('nonsense')).toBe('(not a URL)');
  });
});
