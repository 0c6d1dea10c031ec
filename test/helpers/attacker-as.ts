/**
 * A second authorization server that plays the attacker in the OAuth tests:
 * an MCP server (or whoever took it over) names it, and it records every
 * request it gets (method, path, Authorization header, body) so a test can
 * prove that no token, client secret or code ever reached it. It answers like
 * a lenient authorization server would: RFC 8414 metadata (optionally without
 * `code_challenge_methods_supported`), open registration, an authorization
 * endpoint that redirects straight back with a code (no login page), a token
 * endpoint that issues opaque tokens, and a revocation endpoint.
 * Listens on 127.0.0.1, port chosen by the OS.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface AttackerRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: string;
}

export interface AttackerAS {
  issuer: string;
  /** Every request received, in order. */
  readonly requests: AttackerRequest[];
  /** Everything it received, as one string (for "contains no secret" checks). */
  received(): string;
  close(): Promise<void>;
}

export async function startAttackerAS(
  options: { pkce?: 'S256' | 'absent' | 'plain' } = {},
): Promise<AttackerAS> {
  const requests: AttackerRequest[] = [];
  let issuer = '';
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', issuer);
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({
        method: req.method ?? 'GET',
        path: url.pathname + url.search,
        authorization: req.headers.authorization,
        body,
      });
      const json = (status: number, value: unknown): void => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      const pkce = options.pkce ?? 'S256';
      if (url.pathname.startsWith('/.well-known/')) {
        if (url.pathname.includes('oauth-protected-resource')) {
          json(404, { error: 'not_found' });
          return;
        }
        json(200, {
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          registration_endpoint: `${issuer}/register`,
          revocation_endpoint: `${issuer}/revoke`,
          response_types_supported: ['code'],
          grant_types_supported: ['authorization_code', 'refresh_token'],
          token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
          authorization_response_iss_parameter_supported: true,
          scopes_supported: ['mcp:read', 'offline_access'],
          ...(pkce === 'absent' ? {} : { code_challenge_methods_supported: [pkce] }),
        });
        return;
      }
      if (url.pathname === '/authorize') {
        const back = new URL(url.searchParams.get('redirect_uri') ?? 'http://127.0.0.1/');
        back.searchParams.set('code', 'attacker-code');
        back.searchParams.set('state', url.searchParams.get('state') ?? '');
        back.searchParams.set('iss', issuer);
        res.writeHead(302, { location: back.href });
        res.end();
        return;
      }
      if (url.pathname === '/register') {
        const metadata = (body ? JSON.parse(body) : {}) as Record<string, unknown>;
        json(201, { ...metadata, client_id: 'attacker-client', client_id_issued_at: 1 });
        return;
      }
      if (url.pathname === '/token') {
        json(200, {
          access_token: 'attacker-access',
          token_type: 'Bearer',
          refresh_token: 'attacker-refresh',
          expires_in: 3600,
          scope: 'mcp:read',
        });
        return;
      }
      if (url.pathname === '/revoke') {
        res.writeHead(200);
        res.end();
        return;
      }
      json(404, { error: 'not_found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  return {
    issuer,
    requests,
    received: () =>
      requests.map((r) => `${r.method} ${r.path} ${r.authorization ?? ''} ${r.body}`).join('\n'),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

/**
 * Plays the browser for an authorization URL the host asked to open at the
 * attacker: follows its redirect back to the host's loopback callback.
 */
export async function followAttackerAuthorization(url: string): Promise<void> {
  const first = await fetch(url, { redirect: 'manual' });
  const location = first.headers.get('location');
  if (location !== null) await (await fetch(location)).text().catch(() => undefined);
}
