import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerConfig, StdioServerConfig } from '../../shared/model/config.js';

const require = createRequire(import.meta.url);

export const everythingEntry: string =
  require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
/** The path of one of our fixture servers in test/fixtures/servers/. */
export const fixtureEntry = (file: string): string =>
  fileURLToPath(new URL(`../fixtures/servers/${file}`, import.meta.url));

/** One of our fixture servers over stdio, run with this Node. */
export const fixtureServer = (file: string, ...args: string[]): StdioServerConfig => ({
  command: process.execPath,
  args: [fixtureEntry(file), ...args],
});

export const rawServerEntry: string = fixtureEntry('raw-server.mjs');

/** server-everything over stdio, run with this Node. */
export const everything = (): StdioServerConfig => ({
  command: process.execPath,
  args: [everythingEntry, 'stdio'],
});

/** Our misbehaving fixture with the given flags. */
export const rawServer = (...flags: string[]): StdioServerConfig => fixtureServer('raw-server.mjs', ...flags);

/** A node one-liner as a "server". */
export const nodeScript = (code: string): StdioServerConfig => ({
  command: process.execPath,
  args: ['-e', code],
});

/** Writes an mcpServers config file in a fresh temp folder and returns its path. */
export function writeConfig(servers: Record<string, ServerConfig>): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-host-test-'));
  const path = join(dir, 'mcp-servers.json');
  writeFileSync(path, JSON.stringify({ mcpServers: servers }, null, 2));
  return path;
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'mcp-host-test-'));
}

/** Whether a process exists (signal 0). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export const loggingServerEntry: string = fixtureEntry('logging-server.mjs');

/** Our v2-SDK fixture that declares `logging` and logs once at every level on demand. */
export const loggingServer = (): StdioServerConfig => fixtureServer('logging-server.mjs');
