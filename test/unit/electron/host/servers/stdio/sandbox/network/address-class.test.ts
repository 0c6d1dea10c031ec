import { describe, expect, it } from 'vitest';
import {
  isLoopbackName,
  isPrivateAddress,
} from '../../../../../../../../electron/host/servers/stdio/sandbox/network/address-class.js';

describe('address classification', () => {
  it('finds loopback, link-local, private and unspecified addresses, in both families', () => {
    for (const address of [
      '127.0.0.1',
      '127.255.0.9',
      '10.0.0.5',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '0.0.0.0',
      '::1',
      '::',
      '[::1]',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      'fe80::1%eth0',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.1.2.3',
    ]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
  });

  it('leaves public addresses and names alone', () => {
    for (const address of [
      '8.8.8.8',
      '172.32.0.1',
      '192.169.0.1',
      '2606:4700::1111',
      '::ffff:8.8.8.8',
      'example.com',
    ]) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });

  it('knows the names that always mean this machine', () => {
    expect(isLoopbackName('localhost')).toBe(true);
    expect(isLoopbackName('LOCALHOST.')).toBe(true);
    expect(isLoopbackName('db.localhost')).toBe(true);
    expect(isLoopbackName('localhost.example.com')).toBe(false);
  });
});
