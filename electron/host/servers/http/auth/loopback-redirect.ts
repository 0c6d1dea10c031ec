import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HostError } from '../../../errors.js';

/**
 * The redirect end of a browser sign-in (RFC 8252 §7.3): a one-shot HTTP
 * listener on 127.0.0.1 that waits for the authorization server to send the
 * browser back with `code`, `state` and `iss`. It answers only GET on its
 * path, checks `state` before anything else, shows the person a short page
 * that says what happened, and closes itself after the first valid answer,
 * a time limit or a cancel. The same code runs in Electron and in the
 * headless shell: only opening the browser differs (Platform.openExternal).
 */

export const CALLBACK_PATH = '/oauth/callback';

export interface LoopbackRedirect {
  /** `http://127.0.0.1:<port>/oauth/callback`. */
  readonly redirectUrl: string;
  readonly port: number;
  /** The callback's query (code, iss…) once the browser came back with the right state. */
  readonly callback: Promise<URLSearchParams>;
  /** Stops waiting: `callback` rejects with `reason`. */
  cancel(reason: HostError): void;
}

export interface LoopbackOptions {
  /** The `state` sent with the authorization request. */
  state: string;
  /** How long the person has to finish in the browser. */
  timeoutMs: number;
  /** Try this port first (the one a registration names); any free port when it is taken. */
  preferredPort?: number | undefined;
  serverName: string;
}

/** Starts listening; resolves once the port is bound. */
export async function startLoopbackRedirect(options: LoopbackOptions): Promise<LoopbackRedirect> {
  const server = createServer();
  const port = await listen(server, options.preferredPort);
  let settle: { resolve: (params: URLSearchParams) => void; reject: (error: HostError) => void } | undefined;
  const callback = new Promise<URLSearchParams>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // The caller may never await it (cancelled before the browser opened).
  callback.catch(() => undefined);
  let done = false;
  const finish = (outcome: { params: URLSearchParams } | { error: HostError }): void => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    // Lets the answer page reach the browser, then frees the port.
    setTimeout(() => server.close(), 50).unref();
    server.closeIdleConnections();
    if ('params' in outcome) settle?.resolve(outcome.params);
    else settle?.reject(outcome.error);
  };
  const minutes = Math.max(1, Math.round(options.timeoutMs / 60_000));
  const timer = setTimeout(() => {
    finish({
      error: new HostError(
        'sign_in_required',
        `Sign-in to "${options.serverName}" was not completed within ${String(minutes)} min; press Sign in to try again`,
      ),
    });
  }, options.timeoutMs);
  timer.unref();

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method !== 'GET' || url.pathname !== CALLBACK_PATH || done) {
      answer(response, 404, 'Nothing here', 'This address only receives the sign-in of MCP Host.');
      return;
    }
    const params = url.searchParams;
    if (params.get('state') !== options.state) {
      // Not our sign-in (a stale tab, or a forged link): refuse it and keep waiting for the real one.
      answer(
        response,
        400,
        'Sign-in not accepted',
        'This sign-in response does not belong to the sign-in MCP Host started. Return to the app and try again.',
      );
      return;
    }
    const error = params.get('error');
    if (error !== null) {
      answer(response, 200, 'Sign-in cancelled', 'You can close this tab and return to MCP Host.');
      finish({ error: authorizationRefused(options.serverName, error) });
      return;
    }
    if (params.get('code') === null) {
      answer(response, 400, 'Sign-in not accepted', 'The response carried no authorization code.');
      finish({
        error: new HostError(
          'sign_in_required',
          `Sign-in to "${options.serverName}" failed: the authorization server sent no code`,
        ),
      });
      return;
    }
    answer(response, 200, 'Signed in', 'You can close this tab and return to MCP Host.');
    finish({ params });
  });

  return {
    redirectUrl: `http://127.0.0.1:${String(port)}${CALLBACK_PATH}`,
    port,
    callback,
    cancel: (reason) => {
      finish({ error: reason });
    },
  };
}

/**
 * The error code only: `error_description` comes from whoever sent the
 * browser here and may be a mix-up attacker's text (RFC 9207), so it is
 * never shown.
 */
function authorizationRefused(serverName: string, code: string): HostError {
  const safe = /^[\x20-\x7E]{1,64}$/.test(code) ? code : 'error';
  const why =
    safe === 'access_denied'
      ? 'access was denied in the browser'
      : `the authorization server answered "${safe}"`;
  return new HostError('sign_in_required', `Sign-in to "${serverName}" did not complete: ${why}`);
}

function listen(server: Server, preferredPort: number | undefined): Promise<number> {
  const attempt = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const onError = (error: Error) => {
        reject(error);
      };
      server.once('error', onError);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', onError);
        resolve((server.address() as AddressInfo).port);
      });
    });
  if (preferredPort === undefined) return attempt(0);
  return attempt(preferredPort).catch(() => attempt(0));
}

function answer(response: ServerResponse, status: number, title: string, text: string): void {
  const page = `<!doctype html><html lang="en"><meta charset="utf-8"><title>${title}</title><meta name="viewport" content="width=device-width"><body style="font:16px system-ui;margin:15vh auto;max-width:32em;text-align:center"><h1 style="font-size:1.4em">${title}</h1><p>${text}</p></body></html>`;
  response.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    'referrer-policy': 'no-referrer',
    connection: 'close',
  });
  response.end(page);
}
