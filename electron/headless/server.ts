import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';
import { ClientFrameSchema, MAX_FRAME_BYTES, WS_PATH } from '../../shared/ipc/wire.js';
import type { ServerFrame } from '../../shared/ipc/wire.js';
import type { Host } from '../host/host-types.js';
import { dispatch } from '../host/ipc/dispatch.js';
import { allowedHost, allowedOrigins, hasPageCookie, newToken, requestUrl } from './auth.js';
import { readStatic } from './static-files.js';
import { boundConnections } from './connection-limits.js';
import { startSandboxServer } from './sandbox-server.js';
import { tooManyValues } from './frame-guard.js';
import {
  CliChallenges,
  CLI_CHALLENGE_PATH,
  INSTALL_LINK_PATH,
  serveInstallLink,
} from './install-link-endpoint.js';
import { LOGIN_PATH, NEW_LINK_HINT, PageLogin, loginUrl } from './page-login.js';

export interface HeadlessOptions {
  host: Host;
  /** Folder of the built renderer (dist/renderer). */
  staticDir: string;
  /** 0 (default) lets the OS pick a free port. */
  port?: number;
  /** Origins allowed besides the shell's own, e.g. the Vite dev server in `npm run dev`. */
  extraOrigins?: readonly string[];
  /** The apps' sandbox origin's port (the last one used, so an open page's apps still load); 0 or absent: any. */
  sandboxPort?: number | undefined;
  /**
   * The access token, read on every request: a function lets it change while
   * the shell runs (the CLI's per-installation token, rotated with
   * `mcp-host rotate-token`); sockets opened with an old one are closed.
   * Default: a random token for this start only.
   */
  token?: (() => string) | undefined;
}

export interface HeadlessServer {
  /** A sign-in link for the page, with a fresh single-use code (a new one on every read). */
  readonly url: string;
  readonly port: number;
  /** The port of the apps' sandbox origin. */
  readonly sandboxPort: number;
  /** The long-lived secret: never sent over the wire (cookies and proofs are derived from it). */
  readonly token: string;
  close(): Promise<void>;
}

/** How often open sockets are checked against a rotated token. */
const TOKEN_CHECK_MS = 2000;

/** Open pages (authenticated sockets) at once; a person has a few tabs, not dozens. */
export const MAX_SOCKETS = 16;

/**
 * The headless shell: serves the built renderer and the host API over one
 * WebSocket, on 127.0.0.1 only. The page and the socket both require the
 * page cookie (derived from the token, given in exchange for a single-use
 * sign-in code); the socket also requires one of our own Origins, and every
 * request carries a loopback Host header with our port (no DNS rebinding).
 * The CLI proves it holds the token by HMAC and never sends it.
 */
export async function startHeadless(options: HeadlessOptions): Promise<HeadlessServer> {
  const fixed = newToken();
  const currentToken = options.token ?? (() => fixed);
  /** The token each open socket was admitted with. */
  const admitted = new Map<WebSocket, string>();
  const http = createServer();
  // No compression: nothing to negotiate, so a frame with RSV1 set is simply invalid.
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false });
  let port = 0;
  let sandboxOrigin = () => '';
  const login = new PageLogin();
  const challenges = new CliChallenges();

  // Whatever a peer sends, a failing socket is that peer's problem: never an unhandled 'error'.
  wss.on('error', (error) => {
    console.error(`[headless] WebSocket server error: ${error.message}`);
  });
  boundConnections(http);

  http.on('request', (req, res) => {
    void serveHttp(req, res, {
      port,
      token: currentToken(),
      staticDir: options.staticDir,
      frameOrigin: sandboxOrigin(),
      host: options.host,
      login,
      challenges,
    });
  });
  http.on('upgrade', (req, socket, head) => {
    socket.on('error', () => {
      socket.destroy();
    });
    const token = currentToken();
    const refusal =
      checkUpgrade(req, port, token, options.extraOrigins ?? []) ??
      (wss.clients.size >= MAX_SOCKETS ? { status: 503, reason: 'Service Unavailable' } : null);
    if (refusal) {
      refuseUpgrade(socket, refusal);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      admitted.set(ws, token);
      ws.on('close', () => admitted.delete(ws));
      serveSocket(ws, options.host);
    });
  });
  // A rotated token ends the sessions of the old one, not just new connections.
  const tokenCheck = setInterval(() => {
    const token = currentToken();
    for (const [ws, used] of admitted) if (used !== token) ws.close(1008, 'The access token was changed');
  }, TOKEN_CHECK_MS);
  tokenCheck.unref();

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, '127.0.0.1', () => {
      http.off('error', reject);
      resolve();
    });
  });
  port = (http.address() as AddressInfo).port;
  // MCP Apps run on a second loopback origin that only the shell's own pages may frame.
  const sandbox = await startSandboxServer(
    options.host,
    () => [...allowedOrigins(port, options.extraOrigins)],
    options.sandboxPort ?? 0,
  );
  sandboxOrigin = () => sandbox.origin;

  return {
    get url() {
      return loginUrl(currentToken(), port);
    },
    port,
    sandboxPort: sandbox.port,
    get token() {
      return currentToken();
    },
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(tokenCheck);
        for (const client of wss.clients) client.terminate();
        wss.close();
        http.closeAllConnections();
        http.close(() => {
          resolve();
        });
      }).then(() => sandbox.close()),
  };
}

interface Refusal {
  status: number;
  reason: string;
}

function checkUpgrade(
  req: IncomingMessage,
  port: number,
  token: string,
  extra: readonly string[],
): Refusal | null {
  if (requestUrl(req).pathname !== WS_PATH) return { status: 404, reason: 'Not Found' };
  if (!allowedHost(req.headers.host, port)) return { status: 403, reason: 'Forbidden' };
  const origin = req.headers.origin;
  if (origin === undefined || !allowedOrigins(port, extra).has(origin))
    return { status: 403, reason: 'Forbidden' };
  if (!hasPageCookie(req, token, port)) return { status: 401, reason: 'Unauthorized' };
  return null;
}

function refuseUpgrade(socket: Duplex, { status, reason }: Refusal): void {
  socket.end(`HTTP/1.1 ${String(status)} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

function serveSocket(ws: WebSocket, host: Host): void {
  const send = (frame: ServerFrame) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame));
  };
  const unsubscribe = host.onEvent((event, payload) => {
    send({ event, payload });
  });
  ws.on('close', unsubscribe);
  // A malformed frame (bad header, invalid UTF-8, reserved opcode or bit, over
  // the size cap): ws has already started closing this socket with the right
  // status code. Only this socket goes; the reason is logged, never the data.
  ws.on('error', (error) => {
    console.warn(`[headless] closed a socket after a bad frame: ${error.message}`);
    ws.terminate();
  });
  ws.on('message', (data: Buffer, isBinary) => {
    if (isBinary) {
      ws.close(1003, 'Text frames only');
      return;
    }
    if (tooManyValues(data)) {
      ws.close(1009, 'Too many JSON values');
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(data.toString('utf8'));
    } catch {
      ws.close(1007, 'Invalid JSON');
      return;
    }
    const frame = ClientFrameSchema.safeParse(json);
    if (!frame.success) {
      ws.close(1008, 'Invalid frame');
      return;
    }
    const { id, method, params } = frame.data;
    void dispatch(host.handlers, method, params).then((result) => {
      send({ id, result });
    });
  });
}

interface HttpContext {
  port: number;
  token: string;
  staticDir: string;
  /** The MCP Apps sandbox origin, the only one the page may frame. */
  frameOrigin: string;
  host: Host;
  login: PageLogin;
  challenges: CliChallenges;
}

async function serveHttp(req: IncomingMessage, res: ServerResponse, ctx: HttpContext): Promise<void> {
  setSecurityHeaders(res, ctx.port, ctx.frameOrigin);
  if (!allowedHost(req.headers.host, ctx.port)) {
    plain(res, 403, 'Forbidden: this server only answers on 127.0.0.1.');
    return;
  }
  const path = requestUrl(req).pathname;
  if (path === INSTALL_LINK_PATH || path === CLI_CHALLENGE_PATH) {
    await serveInstallLink(req, res, ctx.host, ctx.token, ctx.challenges);
    return;
  }
  if (path === LOGIN_PATH) {
    ctx.login.serve(req, res, ctx.token, ctx.port);
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    plain(res, 405, 'Method Not Allowed');
    return;
  }
  const { pathname } = requestUrl(req);
  const isPage = pathname === '/' || pathname === '/index.html';
  if (isPage && !hasPageCookie(req, ctx.token, ctx.port)) {
    plain(
      res,
      401,
      `This page needs signing in: open the link that \`mcp-host serve\` printed. ${NEW_LINK_HINT}`,
    );
    return;
  }
  const file = await readStatic(ctx.staticDir, isPage ? '/index.html' : pathname);
  if (!file) {
    plain(res, 404, isPage ? 'The UI is not built. Run `npm run build` first.' : 'Not Found');
    return;
  }
  res.writeHead(200, {
    'Content-Type': file.type,
    'Content-Length': file.body.length,
    'Cache-Control': isPage ? 'no-store' : 'no-cache',
  });
  res.end(req.method === 'HEAD' ? undefined : file.body);
}

function setSecurityHeaders(res: ServerResponse, port: number, frameOrigin: string): void {
  const self = `127.0.0.1:${String(port)} localhost:${String(port)}`;
  const ws = self
    .split(' ')
    .map((h) => `ws://${h}`)
    .join(' ');
  res.setHeader(
    'Content-Security-Policy',
    [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      "media-src 'self' data:",
      `connect-src 'self' ${ws}`,
      `frame-src ${frameOrigin !== '' ? frameOrigin : "'none'"}`,
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
      "form-action 'none'",
    ].join('; '),
  );
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
}

function plain(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(`${text}\n`);
}
