import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Everything derived from the headless session token. The token itself never
 * travels: pages hold a cookie derived from it, sign-in links carry a
 * single-use code signed with it, and the CLI and the shell prove knowledge of
 * it to each other with HMACs over fresh nonces. Each use has its own label,
 * so a value made for one purpose is worthless for another (a shell's proof is
 * not a CLI request, a CLI request is not a cookie).
 */

const LABEL = {
  cookie: 'mcp-host page cookie v1',
  login: 'mcp-host sign-in code v1',
  shellProof: 'mcp-host shell to cli v1',
  cliRequest: 'mcp-host cli to shell v1',
} as const;

/** How long a sign-in code printed by `serve`, `link` or `rotate-token` can be used (once). */
export const LOGIN_CODE_TTL_MS = 15 * 60 * 1000;

function mac(token: string, label: string, parts: readonly string[]): string {
  return createHmac('sha256', token)
    .update([label, ...parts].join('\n'))
    .digest('base64url');
}

/** Constant-time comparison of two texts (false when either is missing). */
export function sameText(expected: string, given: string | null | undefined): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A fresh random nonce (base64url, 32 bytes). */
export function newNonce(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The page cookie's name: one per port, because browsers send a host's
 * cookies to every port of it; two shells on different ports must not
 * overwrite each other's.
 */
export function pageCookieName(port: number): string {
  return `mcp-host-${String(port)}`;
}

/** The page cookie's value: bound to the token (a rotation ends it) and to the port. */
export function pageCookieValue(token: string, port: number): string {
  return mac(token, LABEL.cookie, [String(port)]);
}

/** `Cookie` header text that authenticates to the shell on `port` (for the CLI's helpers and tests). */
export function pageCookieHeader(token: string, port: number): string {
  return `${pageCookieName(port)}=${pageCookieValue(token, port)}`;
}

/** The value of the cookie `name` in a `Cookie` header, if present. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

/**
 * A single-use sign-in code: its expiry, a nonce and a MAC of both. Anyone
 * holding the token (the shell, the CLI on the same account) can make one;
 * the shell accepts each at most once, only before it expires, and only if it
 * was made after the shell started (a restart forgets which were used).
 */
export function mintLoginCode(token: string, now = Date.now(), ttl = LOGIN_CODE_TTL_MS): string {
  const expires = (now + ttl).toString(36);
  const nonce = randomBytes(16).toString('base64url');
  return `${expires}.${nonce}.${mac(token, LABEL.login, [expires, nonce])}`;
}

/** The code's nonce and expiry if it is well formed and its MAC is right (expiry not checked here). */
export function readLoginCode(token: string, code: string): { nonce: string; expires: number } | null {
  const parts = code.split('.');
  if (parts.length !== 3) return null;
  const [expiresText = '', nonce = '', given = ''] = parts;
  if (!/^[0-9a-z]{1,12}$/.test(expiresText) || !/^[\w-]{22}$/.test(nonce)) return null;
  if (!sameText(mac(token, LABEL.login, [expiresText, nonce]), given)) return null;
  return { nonce, expires: parseInt(expiresText, 36) };
}

/** What the shell answers to a CLI's challenge: proof that it holds the token. */
export function shellProof(token: string, cliNonce: string, shellNonce: string): string {
  return mac(token, LABEL.shellProof, [cliNonce, shellNonce]);
}

/** What the CLI sends with a request: proof that it holds the token, bound to the shell's nonce and the body. */
export function cliRequestMac(token: string, shellNonce: string, body: string): string {
  return mac(token, LABEL.cliRequest, [shellNonce, body]);
}
