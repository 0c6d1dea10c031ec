import { protocol } from 'electron';
import type { Session } from 'electron';
import type { Host } from './host/host-types.js';
import { MAX_REPORT_BYTES } from './host/apps/sandbox-responder.js';

/** The scheme of MCP Apps' own origin in the desktop app. */
export const APP_SCHEME = 'mcp-app';
const ORIGIN = `${APP_SCHEME}://sandbox`;

/**
 * Must run before `ready`: a standard, secure scheme gets a real origin of
 * its own (storage and cookies apart from the renderer's), and no other
 * privilege: no service workers, no fetch from other origins, no CSP bypass.
 */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    {
      scheme: APP_SCHEME,
      privileges: {
        standard: true,
        secure: true,
        supportFetchAPI: false,
        corsEnabled: false,
        bypassCSP: false,
      },
    },
  ]);
}

/**
 * Serves the sandbox proxy of MCP Apps on `mcp-app://sandbox` from the host
 * core (electron/host/apps/). A frame always loads through its window's
 * session, so the handler sits on that session; the apps' isolation comes
 * from their own origin and the opaque-origin inner frame, not from a
 * partition (a partition needs a <webview>, which cannot speak postMessage).
 */
export function serveAppSandbox(host: Host, session: Session): () => void {
  session.protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    if (url.host !== 'sandbox') return new Response('Not Found', { status: 404 });
    const body = request.method === 'POST' ? (await request.text()).slice(0, MAX_REPORT_BYTES) : undefined;
    const answer = host.apps.respond({ method: request.method, path: url.pathname, body });
    return new Response(answer.status === 204 ? null : answer.body, {
      status: answer.status,
      headers: answer.headers,
    });
  });
  // The window is a file:// page, which has no origin to name: the proxy answers its parent with '*'.
  host.apps.bindSandbox({ origin: ORIGIN, hostOrigins: [], reports: false });
  return () => {
    session.protocol.unhandle(APP_SCHEME);
  };
}
