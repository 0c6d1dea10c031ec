import { z } from 'zod';

/**
 * The first request a sandboxed server sends to its proxy: `CONNECT
 * host:port` (a tunnel, HTTPS) or a plain HTTP request with an absolute URI
 * (`GET http://host/path`). Anything else is refused with one line.
 */

/** A name, an IPv4 address or a bracketed IPv6 address; no user info, no spaces. */
const HostSchema = z
  .string()
  .min(1)
  .max(253)
  .regex(/^(?:[A-Za-z0-9_.-]+|\[[0-9A-Fa-f:.%A-Za-z]+\])$/, 'not a host name');
const PortSchema = z.coerce.number().int().min(1).max(65535);

export type RequestTarget =
  { via: 'connect'; host: string; port: number } | { via: 'http'; host: string; port: number; head: Buffer };

export const MAX_HEAD_BYTES = 16 * 1024;

/** Where the head ends (index past "\r\n\r\n"), or -1. */
export const headEnd = (buffer: Buffer): number => {
  const at = buffer.indexOf('\r\n\r\n');
  return at < 0 ? -1 : at + 4;
};

function splitHostPort(authority: string): { host: string; port: string } | undefined {
  const match = /^(\[[^\]]+\]|[^:[\]]+):(\d{1,5})$/.exec(authority);
  if (match?.[1] === undefined || match[2] === undefined) return undefined;
  return { host: match[1], port: match[2] };
}

/** Drops the headers meant for the proxy and asks the origin to close after its answer. */
function forwardedHead(method: string, path: string, version: string, lines: readonly string[]): Buffer {
  const kept = lines.filter((line) => !/^(proxy-[a-z-]*|connection|keep-alive)\s*:/i.test(line));
  return Buffer.from([`${method} ${path} ${version}`, ...kept, 'Connection: close', '', ''].join('\r\n'));
}

function checked(host: string, port: string): { host: string; port: number } {
  const parsedHost = HostSchema.safeParse(host);
  const parsedPort = PortSchema.safeParse(port);
  if (!parsedHost.success) throw new Error('not a host name');
  if (!parsedPort.success) throw new Error('not a port number');
  return { host: parsedHost.data, port: parsedPort.data };
}

/** Reads the head (without the blank line); throws an Error worded for the 400 answer. */
export function parseRequestHead(head: string): RequestTarget {
  const [requestLine = '', ...lines] = head.split('\r\n');
  const match = /^([A-Z]{3,10}) (\S+) (HTTP\/1\.[01])$/.exec(requestLine);
  if (!match?.[1] || !match[2] || !match[3]) throw new Error('not an HTTP proxy request');
  const [, method, target, version] = match;
  const headers = lines.filter((line) => line !== '');
  if (method === 'CONNECT') {
    const parts = splitHostPort(target);
    if (!parts) throw new Error('CONNECT needs host:port');
    return { via: 'connect', ...checked(parts.host, parts.port) };
  }
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new Error('the proxy needs an absolute http:// URL or CONNECT');
  }
  if (url.protocol !== 'http:') throw new Error(`${url.protocol} is not proxied here: use CONNECT for https`);
  if (url.username !== '' || url.password !== '') throw new Error('user names in URLs are not proxied');
  const { host, port } = checked(url.hostname, url.port === '' ? '80' : url.port);
  return {
    via: 'http',
    host,
    port,
    head: forwardedHead(method, `${url.pathname}${url.search}`, version, headers),
  };
}
