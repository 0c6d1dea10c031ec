// The Python half of the compatibility corpus (test/compat/python/corpus.json):
// one virtual environment per entry of "environments", made outside the clone
// next to the npm corpus (<cache root>/python/<name>-<hash>). The hash covers
// the wheels' sha256, the requirements and the Python version, so an
// environment is made again only when one of them changes.
//   MCP_HOST_COMPAT_PYTHON=<python>   the interpreter (default python3, else python)
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(import.meta.url);

function findPythonFolder() {
  for (let dir = dirname(here); ; dir = dirname(dir)) {
    const folder = join(dir, 'test', 'compat', 'python');
    if (existsSync(join(folder, 'corpus.json'))) return folder;
    if (dirname(dir) === dir) throw new Error('test/compat/python/corpus.json not found');
  }
}
/** test/compat/python of this checkout. */
export const pythonFolder = findPythonFolder();

/** test/compat/python/corpus.json as written. */
export function readPythonCorpus() {
  return JSON.parse(readFileSync(join(pythonFolder, 'corpus.json'), 'utf8'));
}

/** A program on PATH, or undefined. */
export function which(program) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    for (const ext of process.platform === 'win32' ? ['.exe', '.cmd', ''] : ['']) {
      const file = join(dir, program + ext);
      if (existsSync(file)) return file;
    }
  }
  return undefined;
}

/** The interpreter environments are made with, its version, or why there is none. */
export function basePython() {
  const candidates = process.env.MCP_HOST_COMPAT_PYTHON
    ? [process.env.MCP_HOST_COMPAT_PYTHON]
    : ['python3', 'python'];
  for (const candidate of candidates) {
    const run = spawnSync(candidate, ['-c', 'import sys; print("%d.%d.%d" % sys.version_info[:3])'], {
      encoding: 'utf8',
    });
    if (run.status === 0) {
      const version = run.stdout.trim();
      const [major, minor] = version.split('.').map(Number);
      if (major === 3 && minor >= 10) return { command: candidate, version };
      return { missing: `${candidate} is Python ${version}; the corpus needs 3.10 or newer` };
    }
  }
  return { missing: `no Python found (${candidates.join(', ')})` };
}

function sha256(file) {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

export function pythonCacheRoot(cacheRoot) {
  return join(cacheRoot, 'python');
}

/** The folder of environment `name` (made or not). */
export function environmentDir(cacheRoot, name, pythonVersion) {
  const spec = readPythonCorpus().environments[name];
  if (!spec) throw new Error(`no Python environment ${name}`);
  const hash = createHash('sha256')
    .update(
      JSON.stringify({
        python: pythonVersion,
        wheels: (spec.wheels ?? []).map((w) => [w, sha256(join(pythonFolder, 'wheels', w))]),
        requirements: spec.requirements ?? [],
      }),
    )
    .digest('hex')
    .slice(0, 12);
  return join(pythonCacheRoot(cacheRoot), `${name}-${hash}`);
}

/** The environment's interpreter and scripts folder. */
export function environmentBin(dir) {
  return process.platform === 'win32' ? join(dir, 'Scripts') : join(dir, 'bin');
}

/**
 * Makes every environment that is not made yet (venv without pip; the pip
 * running this installs into it from its configured index), and removes
 * environments of older versions. Returns the folders by name, or why the
 * Python half is skipped.
 */
export function installPython(cacheRoot, { log = console.log } = {}) {
  const python = basePython();
  if ('missing' in python) {
    log(`Compatibility corpus (Python): skipped, ${python.missing}`);
    return { skipped: python.missing, dirs: {} };
  }
  const { environments } = readPythonCorpus();
  const dirs = {};
  for (const name of Object.keys(environments)) {
    const dir = environmentDir(cacheRoot, name, python.version);
    dirs[name] = dir;
    if (existsSync(join(dir, '.installed'))) continue;
    const spec = environments[name];
    const started = Date.now();
    log(`Compatibility corpus (Python): making ${name} in ${dir} …`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dirname(dir), { recursive: true });
    run(python.command, ['-m', 'venv', '--without-pip', dir]);
    const interpreter = join(environmentBin(dir), process.platform === 'win32' ? 'python.exe' : 'python');
    run(python.command, [
      '-m',
      'pip',
      '--python',
      interpreter,
      'install',
      '--no-input',
      '--quiet',
      '--disable-pip-version-check',
      // One retry: an index that cannot be reached (an offline mirror setup) fails fast.
      '--retries',
      '1',
      ...(spec.wheels ?? []).map((w) => join(pythonFolder, 'wheels', w)),
      ...(spec.requirements ?? []),
    ]);
    writeFileSync(join(dir, '.installed'), `${new Date().toISOString()}\n`);
    log(
      `Compatibility corpus (Python): ${name} made in ${String(Math.round((Date.now() - started) / 1000))} s`,
    );
  }
  const keep = new Set(Object.values(dirs));
  for (const old of readdirSync(pythonCacheRoot(cacheRoot))) {
    const path = join(pythonCacheRoot(cacheRoot), old);
    if (!keep.has(path)) rmSync(path, { recursive: true, force: true });
  }
  return { dirs };
}

function run(command, args) {
  const result = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'pipe'], encoding: 'utf8' });
  // pip's warnings about an unreachable index or skipped locations are noise here; errors are not.
  const errors = (result.stderr ?? '').split('\n').filter((line) => line !== '' && !/^WARNING: /.test(line));
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.slice(0, 2).join(' ')} … failed (exit ${String(result.status)}):\n${errors.join('\n')}`,
    );
  }
}
