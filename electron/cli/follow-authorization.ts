import { CALLBACK_PATH } from '../host/servers/http/auth/loopback-redirect.js';

/**
 * The browser step of a sign-in, automated for the conformance suite (whose
 * test authorization servers approve at once and redirect): requests the
 * authorization page and follows its redirects, as a browser would, until
 * one leads back to the host's loopback listener, which it then calls. Only
 * for the conformance client: the app itself opens the system browser.
 */
export async function followAuthorization(url: string, maxHops = 10): Promise<void> {
  let next = url;
  for (let hop = 0; hop < maxHops; hop++) {
    const response = await fetch(next, { redirect: 'manual' });
    await response.body?.cancel();
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || location === null) {
      if (isLoopback(next)) return;
      throw new Error(`The authorization page answered HTTP ${String(response.status)} without a redirect`);
    }
    next = new URL(location, next).href;
    if (isLoopback(next)) {
      const back = await fetch(next);
      await back.body?.cancel();
      return;
    }
  }
  throw new Error(`The authorization page redirected more than ${String(maxHops)} times`);
}

function isLoopback(url: string): boolean {
  const { hostname, pathname } = new URL(url);
  return hostname === '127.0.0.1' && pathname === CALLBACK_PATH;
}
