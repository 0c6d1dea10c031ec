import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHeadless } from '../../electron/headless/server.js';
import type { HeadlessServer } from '../../electron/headless/server.js';
import type { Host } from '../../electron/host/host-types.js';
import { tempDir } from './servers.js';

/**
 * The headless shell's server for `host` on a free port, serving a folder
 * that holds `files` (name → text) in place of the built renderer.
 */
export function serveHeadless(
  host: Host,
  files: Record<string, string> = { 'index.html': '<!doctype html>' },
): Promise<HeadlessServer> {
  const staticDir = tempDir();
  for (const [name, text] of Object.entries(files)) writeFileSync(join(staticDir, name), text);
  return startHeadless({ host, staticDir, port: 0 });
}
