import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { cookieValue, pageCookieName, pageCookieValue, sameText } from './proofs.js';

/**
 * The headless shell's guard, after the MCP Inspector's fix for its proxy
 * RCE: a random token (never sent over the wire: pages hold a cookie derived
 * from it, compared in constant time), an Origin allow-list, and a Host check
 * against DNS rebinding.
 */
export function newToken(): string {
  return randomBytes(32).toString('hex');
}

/** Whether the request carries this shell's page cookie for the current token. */
export function hasPageCookie(req: IncomingMessage, token: string, port: number): boolean {
  return sameText(pageCookieValue(token, port), cookieValue(req.headers.cookie, pageCookieName(port)));
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
