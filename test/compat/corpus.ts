import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { isStdioConfig } from '../../shared/model/config.js';
import type { ServerConfig, StdioServerConfig } from '../../shared/model/config.js';
import { corpusDir, readCorpus } from '../../scripts/compat-corpus.mjs';
import type { CorpusServer } from '../../scripts/compat-corpus.mjs';

export { corpusDir, installCorpus, isInstalled, readCorpus } from '../../scripts/compat-corpus.mjs';
export type { CorpusServer } from '../../scripts/compat-corpus.mjs';

/**
 * The stdio entry the host is given for a corpus server: its bin run with
 * this Node, or through npm's launcher (`npx --prefix <corpus> <bin>`), the
 * way people configure them. `${tmp}` in an argument is a scratch folder.
 */
export function corpusConfig(server: CorpusServer, scratch: string, dir = corpusDir()): StdioServerConfig {
  const args = (server.args ?? []).map((arg) => arg.replaceAll('${tmp}', scratch));
  const env = server.env !== undefined ? { env: server.env } : {};
  if (server.via === 'npx') {
    return { command: 'npx', args: ['--prefix', dir, '-y', server.bin, ...args], ...env };
  }
  return {
    command: process.execPath,
    args: [join(dir, 'node_modules', '.bin', server.bin), ...args],
    ...env,
  };
}

/** Every corpus server's entry, keyed by name. */
export function corpusConfigs(scratch: string): Record<string, StdioServerConfig> {
  return Object.fromEntries(readCorpus().map((s) => [s.name, corpusConfig(s, scratch)]));
}

const SDK_PACKAGES = ['@modelcontextprotocol/sdk', '@modelcontextprotocol/server', 'fastmcp'];

/**
 * The MCP SDK a corpus server depends on, as installed ("@modelcontextprotocol/sdk 1.0.1"),
 * read from its declared dependencies; what the corpus says by hand where
 * the package bundles its SDK or is not JavaScript.
 */
export function sdkOf(server: CorpusServer, dir = corpusDir()): string {
  const pkgDir = join(dir, 'node_modules', server.package);
  const declared = Object.keys(readJson(join(pkgDir, 'package.json')).dependencies ?? {});
  const found = SDK_PACKAGES.filter((name) => declared.includes(name)).map((name) => {
    const nested = join(pkgDir, 'node_modules', name, 'package.json');
    const hoisted = join(dir, 'node_modules', name, 'package.json');
    const file = existsSync(nested) ? nested : hoisted;
    const short = name
      .replace('@modelcontextprotocol/', 'TS SDK ')
      .replace('TS SDK sdk', 'TS SDK v1')
      .replace('TS SDK server', 'TS SDK v2');
    return `${short === 'fastmcp' ? 'FastMCP' : short} ${readJson(file).version ?? '?'}`;
  });
  return found.length > 0 ? found.join(' + ') : (server.sdk ?? 'unknown');
}

function readJson(file: string): { version?: string; dependencies?: Record<string, string> } {
  return JSON.parse(readFileSync(file, 'utf8')) as {
    version?: string;
    dependencies?: Record<string, string>;
  };
}

/** What a bare SDK client sees of a server: the reference the host is compared with. */
export interface BareView {
  tools: string[];
  protocolVersion: string | undefined;
  serverInfo: string | undefined;
  ms: number;
}

/**
 * Connects a plain SDK `Client` (the SDK's own stdio, Streamable HTTP or SSE
 * transport; version negotiation 'auto', with its disposable probe, unless
 * told 'legacy'; an unanswered probe waits `probeTimeoutMs` before the SDK falls
 * back to `initialize`) to the same command or URL, lists every page of tools, and closes.
 */
export async function bareConnect(
  config: ServerConfig,
  {
    timeoutMs = 120_000,
    mode = 'auto',
    probeTimeoutMs = 10_000,
  }: { timeoutMs?: number; mode?: 'auto' | 'legacy'; probeTimeoutMs?: number } = {},
): Promise<BareView> {
  const started = performance.now();
  // The capabilities the host declares, since servers offer tools by them (server-everything does).
  const client = new Client(
    { name: 'bare-sdk-client', version: '0' },
    {
      // The probe's own limit: by default the SDK waits the whole connect timeout for
      // an answer, which servers on Python SDK 1.1–1.9.3 never give (they choke on it).
      // A server on the legacy SSE transport predates the discovery probe (a client
      // that speaks that transport speaks the handshake of its time).
      versionNegotiation: {
        mode: !isStdioConfig(config) && config.type === 'sse' ? 'legacy' : mode,
        probe: { timeoutMs: probeTimeoutMs },
      },
      capabilities: {
        roots: { listChanged: true },
        sampling: { tools: {} },
        elicitation: { form: {}, url: {} },
        // Sampling and elicitation as tasks (client-features/tasks/): server-everything lists its
        // two bidirectional task tools only to a client that declares them.
        tasks: {
          list: {},
          cancel: {},
          requests: { sampling: { createMessage: {} }, elicitation: { create: {} } },
        },
      },
    },
  );
  const transport = bareTransport(config);
  try {
    await client.connect(transport, { timeout: timeoutMs });
    const tools: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor !== undefined ? { cursor } : undefined, {
        timeout: timeoutMs,
      });
      tools.push(...page.tools.map((t) => t.name));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    const info = client.getServerVersion();
    return {
      tools,
      protocolVersion: client.getNegotiatedProtocolVersion(),
      serverInfo: info ? `${info.name} ${info.version}` : undefined,
      ms: performance.now() - started,
    };
  } finally {
    await client.close().catch(() => undefined);
  }
}

function bareTransport(config: ServerConfig): Transport {
  if (isStdioConfig(config)) {
    return new StdioClientTransport({
      command: config.command,
      args: config.args ?? [],
      env: { ...bareEnvironment(), ...(config.env ?? {}) },
      stderr: 'ignore',
    });
  }
  const url = new URL(config.url);
  if (config.type !== 'sse') return new StreamableHTTPClientTransport(url);
  // Deprecated in the SDK, and what a bare client still needs for a legacy SSE server.
  // eslint-disable-next-line @typescript-eslint/no-deprecated
  return new SSEClientTransport(url);
}

function bareEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of ['PATH', 'HOME', 'USER', 'LANG', 'TMPDIR', 'SHELL', 'TERM']) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  return env;
}
