// Where the Electron binary is, without triggering its download: requiring
// 'electron' with no binary starts one. path.txt (written by electron's
// installer) names the executable under dist/. Used by postinstall, `npm
// start` and the Electron e2e spec, so they agree on "is Electron here?".
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** node_modules/electron, or null when the package is not installed. */
export function electronPackageDir() {
  try {
    return path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return null;
  }
}

/**
 * The executable's path, or why there is none:
 * `{ binary }` or `{ missing }` (a sentence fragment for a message).
 */
export function electronBinaryStatus() {
  const packageDir = electronPackageDir();
  if (!packageDir) return { missing: 'the electron package is not installed.' };
  const pathFile = path.join(packageDir, 'path.txt');
  if (!existsSync(pathFile)) {
    return { missing: 'the Electron binary is not installed (node_modules/electron has no path.txt).' };
  }
  const distDir = process.env.ELECTRON_OVERRIDE_DIST_PATH || path.join(packageDir, 'dist');
  const binary = path.join(distDir, readFileSync(pathFile, 'utf8').trim());
  if (!existsSync(binary))
    return { missing: `the Electron binary is not installed (${binary} does not exist).` };
  return { binary };
}
