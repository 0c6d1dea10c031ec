// Runs after our own `npm install`. Fetches the Electron binary (npm does not
// run electron's install script: see "allowScripts" in package.json) and, when
// it is there, rebuilds native modules for Electron. It never fails the
// install: every problem becomes one line and the exit status is 0.
// Set MCP_HOST_SKIP_ELECTRON=1 to skip it all.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { electronBinaryStatus, electronPackageDir } from './electron-binary.mjs';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(root, 'package.json'));
const DOWNLOAD_TIMEOUT_MS = 5 * 60_000;
const REBUILD_TIMEOUT_MS = 10 * 60_000;

buildFromSource();
try {
  main();
} catch (error) {
  console.log(`Electron setup skipped (${shortReason(error)}).`);
}
process.exit(0);

/**
 * In a source checkout, build once so that `npx mcp-host …` works right after
 * `npm install` (an installed package ships dist/ already). A failure here is
 * reported, not fatal: `npm start` and `npm test` build again.
 */
function buildFromSource() {
  if (
    !existsSync(path.join(root, 'vite.config.ts')) ||
    !existsSync(path.join(root, 'scripts', 'build-node.mjs'))
  ) {
    return;
  }
  if (process.env.MCP_HOST_SKIP_BUILD === '1') return;
  const npm = process.env.npm_execpath;
  const result = npm
    ? spawnSync(process.execPath, [npm, 'run', '--silent', 'build'], { cwd: root, stdio: 'inherit' })
    : { status: 1, error: new Error('not run by npm') };
  if (result.error || result.status !== 0) {
    console.log('Could not build the app now; `npm start` and `npm test` will build it.');
  }
}

function main() {
  if (process.env.MCP_HOST_SKIP_ELECTRON === '1') {
    console.log('Electron setup skipped (MCP_HOST_SKIP_ELECTRON=1).');
    return;
  }
  const packageDir = electronPackageDir();
  // Installed without devDependencies (e.g. as the mcp-host CLI): nothing to do.
  if (!packageDir) return;

  if (electronBinaryStatus().binary === undefined) {
    const failure = downloadElectron(packageDir);
    if (failure !== null) {
      console.log(
        `Electron binary not available (${failure}); \`npm start\` will use the headless shell in your browser.`,
      );
      return;
    }
  }
  rebuildNativeModules();
}

/** Runs electron's own installer (it downloads from GitHub); returns why it failed, or null. */
function downloadElectron(packageDir) {
  const result = spawnSync(process.execPath, [path.join(packageDir, 'install.js')], {
    cwd: packageDir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: DOWNLOAD_TIMEOUT_MS,
  });
  if (result.error) return shortReason(result.error);
  if (result.status !== 0) {
    const firstLine = `${result.stderr}\n${result.stdout}`.split('\n').find((line) => line.trim() !== '');
    return firstLine ? shortReason(firstLine) : `the download exited with status ${result.status}`;
  }
  return electronBinaryStatus().binary !== undefined ? null : 'the download finished but no binary was found';
}

/** Rebuilds native production dependencies (e.g. better-sqlite3) against Electron's ABI. */
function rebuildNativeModules() {
  const native = nativeProductionDependencies();
  if (native.length === 0) return;
  const cli = path.join(path.dirname(require.resolve('electron-builder/package.json')), 'cli.js');
  console.log(`Rebuilding native modules for Electron: ${native.join(', ')}`);
  const result = spawnSync(process.execPath, [cli, 'install-app-deps'], {
    cwd: root,
    stdio: 'inherit',
    timeout: REBUILD_TIMEOUT_MS,
  });
  if (result.error || result.status !== 0) {
    const why = result.error ? shortReason(result.error) : `exit status ${result.status}`;
    console.log(
      `Could not rebuild native modules for Electron (${why}); run \`npx electron-builder install-app-deps\` later.`,
    );
  }
}

/** Production dependencies, direct and transitive, that compile a native addon. */
function nativeProductionDependencies() {
  const found = new Set();
  const seen = new Set();
  const visit = (fromDir, dependencies) => {
    const requireFrom = createRequire(path.join(fromDir, 'package.json'));
    for (const name of Object.keys(dependencies ?? {})) {
      let dir;
      try {
        dir = path.dirname(requireFrom.resolve(`${name}/package.json`));
      } catch {
        continue; // optional, or exports without package.json: not something we rebuild
      }
      if (seen.has(dir)) continue;
      seen.add(dir);
      const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
      if (manifest.gypfile === true || existsSync(path.join(dir, 'binding.gyp'))) found.add(name);
      visit(dir, { ...manifest.dependencies, ...manifest.optionalDependencies });
    }
  };
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  visit(root, { ...manifest.dependencies, ...manifest.optionalDependencies });
  return [...found].sort();
}

function shortReason(error) {
  const text = error instanceof Error ? error.message : String(error);
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}
