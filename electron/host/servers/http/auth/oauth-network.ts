import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/**
 * Where the OAuth flow of a remote server may go, and how a URL it fetches
 * is written to the server's log.
 *
 * - Before the person presses Sign in (a "background" flow: a connect or a
 *   request meeting a 401), only the MCP server's own origin is reached;
 *   once a sign-in holds tokens, also the origins that sign-in used (its
 *   authorization server), so the tokens can be renewed.
 * - Private, loopback and link-local addresses are reached only when the MCP
 *   server itself is on such an address (an intranet server may have an
 *   intranet authorization server; a public one may not point the host at
 *   the person's router or a cloud metadata address).
 */

/** Why a URL of the OAuth flow was not fetched (closed: each has its sentence). */
export type FetchRefusal =
  | { kind: 'before-sign-in'; host: string }
  | { kind: 'private-address'; host: string }
  | { kind: 'unresolvable'; host: string };

export class OAuthFetchRefusedError extends Error {
  constructor(
    readonly refusal: FetchRefusal,
    /** The URL not fetched (for the host's own messages; never shown whole). */
    readonly url: string,
  ) {
    super(describeRefusal(refusal));
    this.name = 'OAuthFetchRefusedError';
  }
}

export function describeRefusal(refusal: FetchRefusal): string {
  switch (refusal.kind) {
    case 'before-sign-in':
      return `not contacting ${refusal.host} before you press Sign in`;
    case 'private-address':
      return `refused to contact ${refusal.host}: a private or local address, while the server itself is not on one`;
    case 'unresolvable':
      return `cannot resolve ${refusal.host}`;
  }
}

/** How a URL is written to the log: origin and path only (no query, fragment or user info). */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return '(not a URL)';
  }
}

export function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** https, or plain http to a loopback address (local development servers). */
export function isSecureOrLoopback(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol === 'https:') return true;
  return parsed.protocol === 'http:' && isLoopbackHostname(parsed.hostname);
}

export function isLoopbackHostname(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return isIP(host) !== 0 && addressClass(host) === 'loopback';
}

type AddressClass = 'public' | 'private' | 'loopback' | 'link-local';

/** Loopback, private (RFC 1918, CGNAT, unique local), link-local, or public; unspecified counts as loopback. */
export function addressClass(address: string): AddressClass {
  const ip = address.replace(/^\[|\]$/g, '').toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(ip)?.[1];
  if (mapped !== undefined) return addressClass(mapped);
  if (isIP(ip) === 4) {
    const [a = 0, b = 0] = ip.split('.').map(Number);
    if (a === 127 || a === 0) return 'loopback';
    if (a === 169 && b === 254) return 'link-local';
    if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'private';
    if (a === 100 && b >= 64 && b <= 127) return 'private';
    return 'public';
  }
  if (isIP(ip) === 6) {
    if (ip === '::1' || ip === '::') return 'loopback';
    if (/^fe[89ab]/.test(ip)) return 'link-local';
    if (/^f[cd]/.test(ip)) return 'private';
    return 'public';
  }
  return 'public';
}

/** Resolves a host name to its addresses (IP literals as they are). */
export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = async (hostname) => {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) return [host];
  if (host === 'localhost' || host.endsWith('.localhost')) return ['127.0.0.1'];
  const answers = await lookup(host, { all: true, verbatim: true });
  return answers.map((answer) => answer.address);
};

/** Whether any address `hostname` resolves to is private, loopback or link-local. */
export async function isLocalHost(hostname: string, resolve: Resolver = systemResolver): Promise<boolean> {
  const addresses = await resolve(hostname);
  return addresses.some((address) => addressClass(address) !== 'public');
}

/** Issuers compared the way the SDK does (RFC 8414 §3.3): one trailing slash apart is the same. */
export function sameIssuer(a: string, b: string): boolean {
  return a === b || a === `${b}/` || b === `${a}/`;
}
