import { stat } from 'node:fs/promises';
import { basename, isAbsolute, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/client';
import type { RootInfo } from '../../../../shared/model/features.js';
import { HostError } from '../../errors.js';

/**
 * Roots: the folders a server may see. They are per server, file:// only,
 * none by default, and live in the server's config entry (`roots`). The host
 * answers `roots/list` from that entry and tells a connected server when it
 * changes.
 */

/**
 * Turns a folder path typed or picked by the person into a file:// URI.
 * The path must be absolute and name an existing directory; anything else is
 * refused with one clear line.
 */
export async function rootUriFromPath(path: string): Promise<string> {
  const trimmed = path.trim();
  if (trimmed === '') throw new HostError('invalid_params', 'Enter the absolute path of a folder');
  if (!isAbsolute(trimmed)) {
    throw new HostError('invalid_params', `Use an absolute path (starting at the root): ${trimmed}`);
  }
  const info = await stat(trimmed).catch(() => undefined);
  if (!info) throw new HostError('not_found', `No such folder: ${trimmed}`);
  if (!info.isDirectory()) throw new HostError('invalid_params', `Not a folder: ${trimmed}`);
  return pathToFileURL(resolve(trimmed)).href;
}

/** What the UI shows for a root URI; a URI that is not a valid file URL keeps its text as the path. */
export function describeRoot(uri: string): RootInfo {
  let path = uri;
  try {
    path = fileURLToPath(uri);
  } catch {
    // Hand-edited config: show the URI as it is.
  }
  return { uri, path, name: basename(path) || path };
}

/**
 * Answers the server's `roots/list` with the roots configured for it right
 * now (read at each request, so a change is seen at once). Only file:// URIs
 * ever leave the host, whatever the config file says.
 */
export function installRootsHandler(client: Client, currentRoots: () => readonly string[]): void {
  client.setRequestHandler('roots/list', () => ({
    roots: currentRoots()
      .filter((uri) => uri.startsWith('file://'))
      .map((uri) => ({ uri, name: describeRoot(uri).name })),
  }));
}

/** Adds a root URI unless present; keeps the order the person chose. */
export function withRoot(roots: readonly string[], uri: string): string[] {
  return roots.includes(uri) ? [...roots] : [...roots, uri];
}
