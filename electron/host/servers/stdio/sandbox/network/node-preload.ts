import { existsSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The preload that routes a sandboxed Node server's `fetch` through its proxy (electron/sandbox-preload/). */
const PRELOAD = join('sandbox', 'node-proxy.cjs');

/**
 * Where the built preload is, or undefined when it is not built (a run
 * from source before `npm run build`): the server then starts without it.
 * The host runs bundled from dist/<part>/ (the CLI, the headless shell, the
 * Electron main process) or from source (tests); in the packaged app dist/
 * is inside app.asar, and the preload is unpacked beside it (an outside
 * process cannot read the archive).
 */
export function nodeProxyPreload(from: string = import.meta.url): string | undefined {
  const here = dirname(fileURLToPath(from));
  const candidates = [
    join(here, '..', PRELOAD),
    join(here, '..', '..', '..', '..', '..', '..', 'dist', PRELOAD),
  ].map((path) => path.replace(`${sep}app.asar${sep}`, `${sep}app.asar.unpacked${sep}`));
  return candidates.find((path) => existsSync(path));
}

/**
 * NODE_OPTIONS with the preload added to what the server was given (quoted:
 * the app's folder may hold spaces).
 */
export function withNodePreload(nodeOptions: string | undefined, preload: string): string {
  const require = `--require "${preload.replace(/(["\\])/g, '\\$1')}"`;
  return nodeOptions !== undefined && nodeOptions.trim() !== '' ? `${nodeOptions} ${require}` : require;
}
