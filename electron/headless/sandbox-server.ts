import { createServer } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Host } from '../host/host-types.js';
import { MAX_REPORT_BYTES } from '../host/apps/sandbox-responder.js';
import { allowedHost, requestUrl } from './auth.js';
import { boundConnections } from './connection-limits.js';

export interface SandboxServer {
  /** http://127.0.0.1:PORT, the apps' own origin. */
  readonly origin: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * The headless shell's second loopback origin, for MCP Apps: a small HTTP
 * server on 127.0.0.1 and another port that serves only what the host core
 * answers for the sandbox (the proxy page of a prepared view, its script,
 * CSP violation reports). It holds no token and no renderer: an app framed
 * from it reaches nothing of the shell. `hostOrigins` are the page origins
 * allowed to frame it.
 */
export async function startSandboxServer(
  host: Host,
  hostOrigins: () => readonly string[],
  preferredPort = 0,
): Promise<SandboxServer> {
  const http = createServer();
  boundConnections(http);
  let port = 0;
  http.on('request', (req, res) => {
    if (!allowedHost(req.headers.host, port)) {
      res.writeHead(403, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Forbidden\n');
      return;
    }
    void readBody(req).then((body) => {
      const answer = host.apps.respond({ method: req.method ?? 'GET', path: requestUrl(req).pathname, body });
      res.writeHead(answer.status, answer.headers);
      res.end(req.method === 'HEAD' ? undefined : answer.body);
    });
  });
  // The port it had last time, so apps in a page left open keep loading after a restart; else any.
  await listen(http, preferredPort).catch((error: unknown) => {
    if (preferredPort === 0) throw error;
    return listen(http, 0);
  });
  port = (http.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${String(port)}`;
  host.apps.bindSandbox({
    origin,
    get hostOrigins() {
      return hostOrigins();
    },
    reports: true,
  });
  return {
    origin,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => {
          resolve();
        });
      }),
  };
}

function listen(http: Server, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, '127.0.0.1', () => {
      http.off('error', reject);
      resolve();
    });
  });
}

/** A POST body up to the report limit (the rest is dropped); GET has none. */
function readBody(req: IncomingMessage): Promise<string | undefined> {
  if (req.method !== 'POST') return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (size < MAX_REPORT_BYTES) chunks.push(chunk);
      size += chunk.length;
    });
    req.on('end', () => {
      resolve(Buffer.concat(chunks).toString('utf8').slice(0, MAX_REPORT_BYTES));
    });
    req.on('error', () => {
      resolve(undefined);
    });
  });
}
