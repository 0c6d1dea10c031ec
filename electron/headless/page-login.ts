import type { IncomingMessage, ServerResponse } from 'node:http';
import { hasPageCookie, requestUrl } from './auth.js';
import {
  LOGIN_CODE_TTL_MS,
  mintLoginCode,
  pageCookieName,
  pageCookieValue,
  readLoginCode,
} from './proofs.js';

/** Where a sign-in link leads: `/login?code=<single-use code>`. */
export const LOGIN_PATH = '/login';
export const LOGIN_CODE_PARAM = 'code';

/** The sign-in link for the shell on `port`, with a fresh single-use code. */
export function loginUrl(token: string, port: number): string {
  return `http://127.0.0.1:${String(port)}${LOGIN_PATH}?${LOGIN_CODE_PARAM}=${mintLoginCode(token)}`;
}

/** What to run for a new link; `npm start` users have no `mcp-host` on their PATH. */
export const NEW_LINK_HINT =
  'Get a new link with `mcp-host link` (in a checkout: `node dist/cli/mcp-host.mjs link`).';

/**
 * The page's sign-in: a link's single-use code is exchanged for an HttpOnly,
 * SameSite=Strict cookie and the browser is sent on to `/`, so neither the
 * address bar nor the history holds anything that still works. A code counts
 * once, until it expires, and only if it was made after this shell started.
 */
export class PageLogin {
  /** Nonces of codes already exchanged, with their expiry. */
  private readonly used = new Map<string, number>();
  private readonly startedAt = Date.now();

  /** True once for a valid code; false for a used, expired, older or forged one. */
  consume(token: string, code: string, now = Date.now()): boolean {
    const read = readLoginCode(token, code);
    if (!read) return false;
    for (const [nonce, expires] of this.used) if (expires <= now) this.used.delete(nonce);
    const issued = read.expires - LOGIN_CODE_TTL_MS;
    if (read.expires <= now || issued < this.startedAt || issued > now || this.used.has(read.nonce))
      return false;
    this.used.set(read.nonce, read.expires);
    return true;
  }

  /** Answers `GET /login?code=…`: a cookie and a redirect to `/`, or a one-line refusal. */
  serve(req: IncomingMessage, res: ServerResponse, token: string, port: number): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Method Not Allowed\n');
      return;
    }
    const code = requestUrl(req).searchParams.get(LOGIN_CODE_PARAM) ?? '';
    const fresh = this.consume(token, code);
    if (!fresh && !hasPageCookie(req, token, port)) {
      res.writeHead(401, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
      res.end(`This sign-in link was already used or has expired. ${NEW_LINK_HINT}\n`);
      return;
    }
    // A browser already signed in may open a used link again: it just goes on to the page.
    const headers: Record<string, string> = { Location: '/', 'Cache-Control': 'no-store' };
    if (fresh)
      headers['Set-Cookie'] =
        `${pageCookieName(port)}=${pageCookieValue(token, port)}; HttpOnly; SameSite=Strict; Path=/`;
    res.writeHead(303, headers);
    res.end();
  }
}
