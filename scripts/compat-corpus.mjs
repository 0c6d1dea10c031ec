// Where the compatibility corpus (test/compat/corpus.json) is installed, and
// how to install it: a folder outside the clone, one per version of the
// corpus (a hash of its packages and versions), so CI and developers install
// it once and a changed corpus installs afresh. The Python half
// (test/compat/python/corpus.json) is made by ./compat-python.mjs under
// <cache root>/python, one environment per SDK release.
//   MCP_HOST_COMPAT_CACHE=<folder>   the cache root (default ~/.cache/mcp-host/compat)
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installPython, pythonCacheRoot } from './compat-python.mjs';

const here = fileURLToPath(import.meta.url);

/** test/compat/corpus.json of this checkout, found upwards from this file (it may be bundled into dist/). */
function findCorpusFile() {
  for (let dir = dirname(here); ; dir = dirname(dir)) {
    const file = join(dir, 'test', 'compat', 'corpus.json');
    if (existsSync(file)) return file;
    if (dirname(dir) === dir) throw new Error('test/compat/corpus.json not found');
  }
}
const corpusFile = findCorpusFile();

/** The corpus as written in test/compat/corpus.json. */
export function readCorpus() {
  return JSON.parse(readFileSync(corpusFile, 'utf8')).servers;
}

function packages() {
  return Object.fromEntries(readCorpus().map((s) => [s.package, s.version]));
}

export function cacheRoot() {
  return process.env.MCP_HOST_COMPAT_CACHE ?? join(homedir(), '.cache', 'mcp-host', 'compat');
}

/** The folder this version of the corpus is (or will be) installed in. */
export function corpusDir() {
  const hash = createHash('sha256').update(JSON.stringify(packages())).digest('hex').slice(0, 12);
  return join(cacheRoot(), hash);
}

export function isInstalled() {
  return existsSync(join(corpusDir(), '.installed'));
}

/**
 * Installs the corpus unless this version already is: exact versions, no
 * install scripts (none of these servers needs one to list its tools, and a
 * script could download a browser), then removes older versions of the corpus.
 */
export function installCorpus({ log = console.log } = {}) {
  const dir = installNpmCorpus(log);
  installPython(cacheRoot(), { log });
  return dir;
}

function installNpmCorpus(log) {
  const dir = corpusDir();
  if (isInstalled()) {
    log(`Compatibility corpus: installed in ${dir}`);
    return dir;
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'mcp-host-compat-corpus', private: true, dependencies: packages() }, null, 2)}\n`,
  );
  log(`Compatibility corpus: installing ${String(readCorpus().length)} servers into ${dir} …`);
  const started = Date.now();
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(
    npm,
    ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'],
    {
      cwd: dir,
      stdio: 'inherit',
      shell: process.platform === 'win32',
    },
  );
  if (result.status !== 0)
    throw new Error(`npm install of the corpus failed (exit ${String(result.status)})`);
  writeFileSync(join(dir, '.installed'), `${new Date().toISOString()}\n`);
  for (const old of readdirSync(cacheRoot())) {
    const path = join(cacheRoot(), old);
    if (path !== dir && path !== pythonCacheRoot(cacheRoot())) rmSync(path, { recursive: true, force: true });
  }
  log(`Compatibility corpus: installed in ${String(Math.round((Date.now() - started) / 1000))} s`);
  return dir;
}

if (here.endsWith('compat-corpus.mjs') && process.argv[1] === here) installCorpus();
