import { lookup as dnsLookup } from 'node:dns/promises';
import { connect, createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import type {
  NetworkConsentDecision,
  NetworkConsentPrompt,
} from '../../../../../../shared/model/network-consent.js';
import { isAddress } from './address-class.js';
import { alwaysEntry, decideHost, hostKey, normalizeHost, resolvedDenial } from './host-rules.js';
import { MAX_HEAD_BYTES, headEnd, parseRequestHead } from './request-head.js';
import type { RequestTarget } from './request-head.js';

/** Asks the person about one host of one server; resolves with their decision (a failure counts as deny). */
export type NetworkAsk = (
  server: string,
  prompt: NetworkConsentPrompt,
  signal: AbortSignal,
) => Promise<{ decision: NetworkConsentDecision; reason?: string }>;

export interface FilterProxyOptions {
  /** The server this proxy belongs to: every connection that arrives here is its. */
  server: string;
  socketPath: string;
  /** `sandbox.allowHosts`. */
  allow: readonly string[];
  /** `sandbox.denyHosts`. */
  deny: readonly string[];
  /** The launcher's registry: allowed until `endDownloadStep`. */
  download: readonly string[];
  /** Hosts the person denied for this server while the app runs (shared across restarts). */
  denied: Set<string>;
  ask: NetworkAsk;
  /** A connection was refused: "connect to host:port" and why. */
  onBlocked: (attempt: string, reason: string) => void;
  /** Hosts waiting for an answer at most; more are denied at once. Default 8. */
  maxPendingHosts?: number;
  /** How long a connection waits for the person. Default 2 minutes. */
  askTimeoutMs?: number;
  lookup?: (host: string) => Promise<string[]>;
}

const HEAD_TIMEOUT_MS = 10_000;
const MAX_CONNECTIONS = 256;
const CONNECT_TIMEOUT_MS = 15_000;

const lookupAll = async (host: string): Promise<string[]> =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((found) => found.address);

/** One line, no control characters: what a 403 or 502 says. */
const oneLine = (text: string): string => text.replace(/[\r\n\p{Cc}]+/gu, ' ').slice(0, 300);

function answer(socket: Socket, status: string, reason: string): void {
  const body = `${oneLine(reason)}\n`;
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${String(Buffer.byteLength(body))}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * The host side of one sandboxed server's network: an HTTP proxy on a unix
 * socket only that server's sandbox can reach (its socat bridges a loopback
 * port to it). Each `CONNECT host:port` or absolute-URI request is checked
 * (host-rules.ts); a host nobody decided on yet is asked about once, while
 * its connections wait; an allowed name is looked up here and refused when
 * it resolves to a private address; the connection goes to the address
 * checked. Refusals get a 403 with one line and are reported.
 */
export class FilterProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly allowed: string[];
  private download: readonly string[];
  private readonly allowedOnce = new Set<string>();
  private readonly pending = new Map<string, Promise<true | string>>();
  private readonly aborts = new AbortController();

  constructor(private readonly options: FilterProxyOptions) {
    this.allowed = [...options.allow];
    this.download = options.download;
  }

  get socketPath(): string {
    return this.options.socketPath;
  }

  listen(): Promise<void> {
    const server = createServer((socket) => {
      this.accept(socket);
    });
    // A server that opens connections in a loop (each waiting on a question) must not grow the host without bound.
    server.maxConnections = MAX_CONNECTIONS;
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.options.socketPath, () => {
        server.off('error', reject);
        server.on('error', () => undefined);
        resolve();
      });
    });
  }

  /** The server completed its handshake: its launcher is done downloading. */
  endDownloadStep(): void {
    this.download = [];
  }

  /** Ends every connection and withdraws the questions still open. */
  async close(): Promise<void> {
    this.aborts.abort();
    for (const socket of this.sockets) socket.destroy();
    const server = this.server;
    this.server = undefined;
    if (server)
      await new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
  }

  private accept(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffered = Buffer.alloc(0);
    const timer = setTimeout(() => socket.destroy(), HEAD_TIMEOUT_MS);
    const onData = (chunk: Buffer): void => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = headEnd(buffered);
      if (end < 0) {
        if (buffered.length > MAX_HEAD_BYTES) {
          clearTimeout(timer);
          socket.off('data', onData);
          answer(socket, '431 Request Header Fields Too Large', 'request head too large');
        }
        return;
      }
      clearTimeout(timer);
      socket.off('data', onData);
      socket.pause();
      let target: RequestTarget;
      try {
        target = parseRequestHead(buffered.subarray(0, end - 4).toString('latin1'));
      } catch (error) {
        answer(socket, '400 Bad Request', `Bad request: ${(error as Error).message}`);
        return;
      }
      void this.handle(socket, target, buffered.subarray(end));
    };
    socket.on('data', onData);
  }

  private async handle(socket: Socket, target: RequestTarget, rest: Buffer): Promise<void> {
    const host = normalizeHost(target.host);
    const { port } = target;
    const refuse = (reason: string): void => {
      this.options.onBlocked(`connect to ${hostKey(host, port)}`, reason);
      answer(socket, '403 Forbidden', `Blocked by the sandbox: ${hostKey(host, port)}: ${reason}`);
    };
    const rules = () => ({
      deny: this.options.deny,
      allow: [...this.allowed, ...this.download],
      allowedOnce: this.allowedOnce,
      denied: this.options.denied,
    });
    let verdict = decideHost(rules(), host, port);
    if (verdict.verdict === 'ask') {
      const outcome = await this.askOnce(host, port, target.via);
      if (outcome !== true) {
        refuse(outcome);
        return;
      }
      verdict = decideHost(rules(), host, port);
    }
    if (verdict.verdict === 'deny') {
      refuse(verdict.reason);
      return;
    }
    if (verdict.verdict === 'ask') {
      refuse('not allowed');
      return;
    }
    if (socket.destroyed) return;
    let addresses: string[];
    try {
      addresses = isAddress(host) ? [host] : await (this.options.lookup ?? lookupAll)(host);
    } catch (error) {
      answer(
        socket,
        '502 Bad Gateway',
        `Cannot resolve ${host}: ${(error as NodeJS.ErrnoException).code ?? 'failed'}`,
      );
      return;
    }
    const rebinding = resolvedDenial(rules().allow, host, port, addresses);
    if (rebinding !== undefined) {
      refuse(rebinding);
      return;
    }
    const address = addresses[0];
    if (address === undefined) {
      answer(socket, '502 Bad Gateway', `Cannot resolve ${host}`);
      return;
    }
    this.forward(socket, target, address, rest);
  }

  /** One question per host:port; further connections to it wait for the same answer. True, or why not. */
  private askOnce(host: string, port: number, via: 'connect' | 'http'): Promise<true | string> {
    const key = hostKey(host, port);
    let waiting = this.pending.get(key);
    if (waiting === undefined) {
      if (this.pending.size >= (this.options.maxPendingHosts ?? 8)) {
        return Promise.resolve('too many hosts are already waiting for your answer');
      }
      waiting = this.ask(host, port, via, key);
      this.pending.set(key, waiting);
      void waiting.finally(() => this.pending.delete(key));
    }
    return waiting;
  }

  private async ask(
    host: string,
    port: number,
    via: 'connect' | 'http',
    key: string,
  ): Promise<true | string> {
    const timeout = AbortSignal.timeout(this.options.askTimeoutMs ?? 120_000);
    const signal = AbortSignal.any([timeout, this.aborts.signal]);
    const entry = alwaysEntry(host, port);
    const prompt: NetworkConsentPrompt = {
      host,
      port,
      via,
      ...(entry !== undefined ? { alwaysEntry: entry } : {}),
    };
    const answered = await this.options
      .ask(this.options.server, prompt, signal)
      .catch((): { decision: 'deny'; reason?: string } => ({ decision: 'deny' }));
    if (answered.decision === 'allow-once') {
      this.allowedOnce.add(key);
      return true;
    }
    if (answered.decision === 'always') {
      this.allowed.push(entry ?? key);
      this.allowedOnce.add(key);
      return true;
    }
    if (timeout.aborted) return 'no answer in time';
    if (this.aborts.signal.aborted) return 'the server stopped';
    if (answered.reason !== undefined) return answered.reason;
    this.options.denied.add(key);
    return 'you denied it';
  }

  private forward(socket: Socket, target: RequestTarget, address: string, rest: Buffer): void {
    if (socket.destroyed) return;
    const upstream = connect({ host: address, port: target.port });
    this.sockets.add(upstream);
    upstream.setTimeout(CONNECT_TIMEOUT_MS, () => {
      upstream.destroy(new Error('timed out'));
    });
    upstream.once('error', (error: NodeJS.ErrnoException) => {
      if (!socket.destroyed && socket.bytesWritten === 0)
        answer(
          socket,
          '502 Bad Gateway',
          `Cannot reach ${hostKey(target.host, target.port)}: ${error.code ?? error.message}`,
        );
      else socket.destroy();
    });
    upstream.once('connect', () => {
      upstream.setTimeout(0);
      if (target.via === 'connect') socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      else upstream.write(target.head);
      if (rest.length > 0) upstream.write(rest);
      socket.pipe(upstream);
      upstream.pipe(socket);
      socket.resume();
    });
    upstream.on('close', () => {
      this.sockets.delete(upstream);
      socket.end();
    });
    socket.on('close', () => upstream.destroy());
  }
}
