import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { NetworkAsk } from './filter-proxy.js';
import { FilterProxy } from './filter-proxy.js';

/** The loopback port inside a sandbox where its socat listens (its network namespace is its own: nothing else uses it). */
export const PROXY_PORT = 47129;
/** Where the proxies' sockets live, inside the app's data folder (which every sandbox sees empty). */
export const NETWORK_FOLDER_NAME = 'sandbox-net';
/** A unix socket path is at most 108 bytes on Linux (with the terminating NUL). */
const MAX_SOCKET_PATH = 107;

/** What the host gives every sandboxed server's proxy. */
export interface SandboxNetworkServices {
  ask: NetworkAsk;
  /** The host:port keys the person denied for this server while the app runs. */
  deniedFor: (server: string) => Set<string>;
}

export interface ProxyStart {
  server: string;
  appDataDir: string;
  allow: readonly string[];
  deny: readonly string[];
  download: readonly string[];
  services: SandboxNetworkServices | undefined;
  onBlocked: (attempt: string, reason: string) => void;
}

/** A running proxy and the host-only folder its socket is in (mounted read-only into that one sandbox). */
export interface ServerNetwork {
  proxy: FilterProxy;
  folder: string;
  close: () => Promise<void>;
}

const nobodyToAsk: NetworkAsk = () =>
  Promise.resolve({
    decision: 'deny',
    reason: 'no one can be asked here: add the host to sandbox.allowHosts',
  });

/**
 * Starts the proxy of one server process in a fresh folder of its own
 * (0700, random name): another server's sandbox never sees it, as every
 * sandbox sees the data folder empty apart from its own mounts.
 */
export async function startServerNetwork(start: ProxyStart): Promise<ServerNetwork> {
  const root = join(start.appDataDir, NETWORK_FOLDER_NAME);
  const folder = join(root, randomBytes(6).toString('hex'));
  const socketPath = join(folder, 'proxy.sock');
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) {
    throw new Error(
      `The app's data folder path is too long for the sandbox's network proxy (${root}); set a shorter one`,
    );
  }
  await mkdir(root, { recursive: true, mode: 0o700 });
  await mkdir(folder, { mode: 0o700 });
  const proxy = new FilterProxy({
    server: start.server,
    socketPath,
    allow: start.allow,
    deny: start.deny,
    download: start.download,
    denied: start.services?.deniedFor(start.server) ?? new Set<string>(),
    ask: start.services?.ask ?? nobodyToAsk,
    onBlocked: start.onBlocked,
  });
  try {
    await proxy.listen();
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
  let closed: Promise<void> | undefined;
  return {
    proxy,
    folder,
    close: () => (closed ??= proxy.close().then(() => rm(folder, { recursive: true, force: true }))),
  };
}

/**
 * Runs the server behind `sh`, which first starts socat bridging
 * 127.0.0.1:PROXY_PORT to the proxy's socket and waits (up to 3 s) until it
 * listens, then becomes the server (`exec "$@"`).
 */
export function proxiedCommand(
  socat: string,
  socketPath: string,
  command: string,
  args: readonly string[],
): string[] {
  const listening = `:${PROXY_PORT.toString(16).toUpperCase().padStart(4, '0')} 00000000:0000 0A`;
  const script = [
    `"$MCP_HOST_SOCAT" TCP-LISTEN:${String(PROXY_PORT)},bind=127.0.0.1,fork,reuseaddr "UNIX-CONNECT:$MCP_HOST_PROXY_SOCKET" </dev/null >/dev/null 2>&1 &`,
    `i=0; while ! grep -qi '${listening}' /proc/net/tcp 2>/dev/null && [ $i -lt 300 ]; do i=$((i+1)); sleep 0.01; done`,
    'exec "$@"',
  ].join('\n');
  return [
    '/usr/bin/env',
    `MCP_HOST_SOCAT=${socat}`,
    `MCP_HOST_PROXY_SOCKET=${socketPath}`,
    '/bin/sh',
    '-c',
    script,
    'sh',
    command,
    ...args,
  ];
}

/** The proxy variables: every common client (curl, npm, pip, uv, Python, newer Node) goes through the proxy. */
export function proxyEnvironment(): Record<string, string> {
  const url = `http://127.0.0.1:${String(PROXY_PORT)}`;
  return {
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    http_proxy: url,
    https_proxy: url,
    ALL_PROXY: url,
    all_proxy: url,
    // Nothing bypasses the proxy (and a direct connection has no network to go to anyway).
    NO_PROXY: '',
    no_proxy: '',
    npm_config_proxy: url,
    npm_config_https_proxy: url,
    npm_config_noproxy: '',
    NODE_USE_ENV_PROXY: '1',
  };
}
