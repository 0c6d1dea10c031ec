// Runs after our own `npm install`. Fetches the Electron binary (npm does not
// run electron's install script: see "allowScripts" in package.json) and, when
// it is there, builds a second copy of better-sqlite3's addon for Electron's
// ABI into build/native/electron/ (the copy in node_modules stays built for
// Node, which the headless shell, the CLI and the tests use; the Electron
// shell passes the other one as `nativeBinding`). It never fails the
// install: every problem becomes one line and the exit status is 0.
// Set MCP_HOST_SKIP_ELECTRON=1 to skip it all.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
  buildElectronSqlite();
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

/** Where the Electron build of better-sqlite3's addon goes (electron/main.ts loads it from here). */
const ELECTRON_SQLITE_BINDING = path.join('build', 'native', 'electron', 'better_sqlite3.node');

/**
 * Builds better-sqlite3 for Electron in a scratch copy of the package, so the
 * Node build in node_modules is never replaced (electron-builder's
 * install-app-deps would replace it and break the headless shell and the
 * tests). Tries a prebuilt binary first, then compiling against Electron's
 * headers. Packaged apps don't need this: electron-builder rebuilds their
 * own node_modules for Electron (npmRebuild).
 */
function buildElectronSqlite() {
  let packageDir;
  try {
    packageDir = path.dirname(require.resolve('better-sqlite3/package.json'));
  } catch {
    return;
  }
  const electronVersion = JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')).version;
  const target = path.join(root, ELECTRON_SQLITE_BINDING);
  const scratch = mkdtempSync(path.join(tmpdir(), 'mcp-host-sqlite-'));
  try {
    const work = path.join(scratch, 'better-sqlite3');
    cpSync(packageDir, work, {
      recursive: true,
      filter: (src) => !src.includes(`${path.sep}build${path.sep}`),
    });
    const runtime = ['--runtime=electron', `--target=${electronVersion}`, `--arch=${process.arch}`];
    const attempts = [
      [prebuildInstall(packageDir), ...runtime],
      [nodeGyp(), 'rebuild', '--release', ...runtime, '--dist-url=https://electronjs.org/headers'],
    ].filter((command) => command[0] !== undefined);
    console.log(`Building better-sqlite3 for Electron ${electronVersion}…`);
    for (const command of attempts) {
      const result = spawnSync(process.execPath, command, {
        cwd: work,
        stdio: ['ignore', 'pipe', 'pipe'],
        encoding: 'utf8',
        timeout: REBUILD_TIMEOUT_MS,
      });
      const built = path.join(work, 'build', 'Release', 'better_sqlite3.node');
      if (!result.error && result.status === 0 && existsSync(built)) {
        mkdirSync(path.dirname(target), { recursive: true });
        copyFileSync(built, target);
        console.log(`Electron build of better-sqlite3: ${ELECTRON_SQLITE_BINDING}`);
        return;
      }
    }
    console.log(
      'Could not build better-sqlite3 for Electron (no prebuilt binary or headers reachable); the desktop app will report that conversations cannot be stored until `npm install` succeeds with network access.',
    );
  } catch (error) {
    console.log(`Could not build better-sqlite3 for Electron (${shortReason(error)}).`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function prebuildInstall(fromDir) {
  try {
    const requireFrom = createRequire(path.join(fromDir, 'package.json'));
    return path.join(path.dirname(requireFrom.resolve('prebuild-install/package.json')), 'bin.js');
  } catch {
    return undefined;
  }
}

function nodeGyp() {
  try {
    return path.join(path.dirname(require.resolve('node-gyp/package.json')), 'bin', 'node-gyp.js');
  } catch {
    return undefined;
  }
}

function shortReason(error) {
  const text = error instanceof Error ? error.message : String(error);
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}
