import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { TOKEN_PARAM } from '../../shared/ipc/wire.js';

/**
 * The headless shell's guard, after the MCP Inspector's fix for its proxy
 * RCE: a random token per start (compared in constant time), an Origin
 * allow-list, and a Host check against DNS rebinding.
 */
export function newToken(): string {
  return randomBytes(32).toString('hex');
}

export function tokenMatches(expected: string, given: string | null | undefined): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The token in a request's query string, if any. */
export function requestToken(req: IncomingMessage): string | null {
  return requestUrl(req).searchParams.get(TOKEN_PARAM);
}

export function requestUrl(req: IncomingMessage): URL {
  // The base is only used to parse the path; the Host header is checked separately.
  return new URL(req.url ?? '/', 'http://127.0.0.1');
}

/** Hosts the page may be reached by: loopback names with our port only. */
export function allowedHost(hostHeader: string | undefined, port: number): boolean {
  return hostHeader === `127.0.0.1:${String(port)}` || hostHeader === `localhost:${String(port)}`;
}

export function allowedOrigins(port: number, extra: readonly string[] = []): Set<string> {
  return new Set([`http://127.0.0.1:${String(port)}`, `http://localhost:${String(port)}`, ...extra]);
}
