import { BlockList, isIP } from 'node:net';

/**
 * Which addresses lead back into the person's machine or network: loopback,
 * link-local, private and unspecified ranges. A sandboxed server reaches
 * none of them unless that exact host is in its `allowHosts`.
 */
const PRIVATE = new BlockList();
PRIVATE.addSubnet('0.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('127.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('10.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('172.16.0.0', 12, 'ipv4');
PRIVATE.addSubnet('192.168.0.0', 16, 'ipv4');
PRIVATE.addSubnet('169.254.0.0', 16, 'ipv4');
PRIVATE.addSubnet('100.64.0.0', 10, 'ipv4');
PRIVATE.addAddress('::', 'ipv6');
PRIVATE.addAddress('::1', 'ipv6');
PRIVATE.addSubnet('fc00::', 7, 'ipv6');
PRIVATE.addSubnet('fe80::', 10, 'ipv6');

/** An IPv4 address written inside IPv6 ("::ffff:127.0.0.1", "::ffff:7f00:1"), as IPv4; else undefined. */
function mappedIPv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower)?.[1];
  if (dotted !== undefined) return dotted;
  const hex = /^(?:0{0,4}:){0,5}:?ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex?.[1] === undefined || hex[2] === undefined) return undefined;
  const high = parseInt(hex[1], 16);
  const low = parseInt(hex[2], 16);
  return `${String(high >> 8)}.${String(high & 255)}.${String(low >> 8)}.${String(low & 255)}`;
}

/** The address without IPv6 brackets and zone ("[fe80::1%eth0]" → "fe80::1"). */
export function bareAddress(host: string): string {
  const unbracketed = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const zone = unbracketed.indexOf('%');
  return zone >= 0 ? unbracketed.slice(0, zone) : unbracketed;
}

/** True for an IP address in a loopback, link-local, private or unspecified range. Names are not addresses: false. */
export function isPrivateAddress(host: string): boolean {
  const address = bareAddress(host);
  const version = isIP(address);
  if (version === 4) return PRIVATE.check(address, 'ipv4');
  if (version !== 6) return false;
  const v4 = mappedIPv4(address);
  if (v4 !== undefined) return PRIVATE.check(v4, 'ipv4');
  return PRIVATE.check(address, 'ipv6');
}

/** Names that mean this machine whatever DNS says. */
export function isLoopbackName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost') || name === 'localhost.localdomain';
}

/** True when the host is an address (not a name). */
export const isAddress = (host: string): boolean => isIP(bareAddress(host)) !== 0;
