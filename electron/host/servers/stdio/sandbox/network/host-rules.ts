import { HostPatternSchema } from '../../../../../../shared/model/sandbox.js';
import { bareAddress, isAddress, isLoopbackName, isPrivateAddress } from './address-class.js';

/**
 * What a sandboxed server may reach: the pure part of the network filter.
 * Patterns are those of `sandbox.allowHosts`: "api.example.com" (any port),
 * "api.example.com:8443" (that port), "*.example.com" (its subdomains).
 */

/** Lower case, no trailing dot, no IPv6 brackets. */
export const normalizeHost = (host: string): string =>
  bareAddress(host.trim().toLowerCase()).replace(/\.$/, '');

/** "host:port" as asks and remembered answers key it ("[::1]:443" for IPv6). */
export const hostKey = (host: string, port: number): string =>
  `${host.includes(':') ? `[${host}]` : host}:${String(port)}`;

interface Pattern {
  host: string;
  wildcard: boolean;
  port: number | undefined;
}

function parsePattern(pattern: string): Pattern | undefined {
  const text = pattern.trim().toLowerCase();
  const match = /^(\*\.)?([^:]+)(?::(\d{1,5}))?$/.exec(text);
  if (match?.[2] === undefined) return undefined;
  const port = match[3] !== undefined ? Number(match[3]) : undefined;
  return { host: normalizeHost(match[2]), wildcard: match[1] !== undefined, port };
}

/** Whether one pattern covers host:port. A wildcard covers subdomains, not the name itself. */
export function patternMatches(pattern: string, host: string, port: number): boolean {
  const parsed = parsePattern(pattern);
  if (parsed === undefined) return false;
  if (parsed.port !== undefined && parsed.port !== port) return false;
  const name = normalizeHost(host);
  return parsed.wildcard ? name.endsWith(`.${parsed.host}`) : name === parsed.host;
}

/** Whether a pattern without a wildcard names exactly this host (and port, when it has one). */
export function exactlyNamed(patterns: readonly string[], host: string, port: number): boolean {
  return patterns.some((pattern) => {
    const parsed = parsePattern(pattern);
    return (
      parsed !== undefined &&
      !parsed.wildcard &&
      parsed.host === normalizeHost(host) &&
      (parsed.port === undefined || parsed.port === port)
    );
  });
}

/** What the person's "always" writes into allowHosts: the host for 80 and 443, else host:port; undefined when not writable. */
export function alwaysEntry(host: string, port: number): string | undefined {
  const name = normalizeHost(host);
  const entry = port === 80 || port === 443 ? name : `${name}:${String(port)}`;
  return HostPatternSchema.safeParse(entry).success ? entry : undefined;
}

export interface HostRules {
  /** `sandbox.denyHosts`: never. */
  deny: readonly string[];
  /** `sandbox.allowHosts`, hosts allowed "always" since the start, and (while it downloads) the launcher's registry. */
  allow: readonly string[];
  /** host:port keys allowed once for this process. */
  allowedOnce: ReadonlySet<string>;
  /** host:port keys the person denied while the app runs. */
  denied: ReadonlySet<string>;
}

export type HostVerdict = { verdict: 'allow' } | { verdict: 'deny'; reason: string } | { verdict: 'ask' };

/**
 * The decision before any name is looked up, in order: denied by the
 * configuration; a loopback, link-local or private address (or "localhost")
 * unless exactly this host is allowed; allowed; denied earlier; else ask.
 */
export function decideHost(rules: HostRules, host: string, port: number): HostVerdict {
  const name = normalizeHost(host);
  if (rules.deny.some((pattern) => patternMatches(pattern, name, port)))
    return { verdict: 'deny', reason: 'the host is in sandbox.denyHosts' };
  if ((isPrivateAddress(name) || isLoopbackName(name)) && !exactlyNamed(rules.allow, name, port))
    return { verdict: 'deny', reason: 'loopback and private addresses are denied unless allowed exactly' };
  if (isAddress(name) && isPrivateAddress(name)) return { verdict: 'allow' };
  if (rules.allow.some((pattern) => patternMatches(pattern, name, port))) return { verdict: 'allow' };
  const key = hostKey(name, port);
  if (rules.allowedOnce.has(key)) return { verdict: 'allow' };
  if (rules.denied.has(key)) return { verdict: 'deny', reason: 'you denied this host earlier' };
  return { verdict: 'ask' };
}

/**
 * The check after the look-up (DNS rebinding): a name that resolves to a
 * loopback or private address is denied unless exactly this host is allowed.
 * Returns the reason to deny, or undefined.
 */
export function resolvedDenial(
  allow: readonly string[],
  host: string,
  port: number,
  addresses: readonly string[],
): string | undefined {
  const name = normalizeHost(host);
  if (exactlyNamed(allow, name, port)) return undefined;
  const inside = addresses.find((address) => isPrivateAddress(address));
  return inside !== undefined ? `${name} resolves to the private address ${inside}` : undefined;
}
