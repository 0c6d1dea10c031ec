import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import type { StdioServerConfig } from '../../../../shared/model/config.js';
import type { ServerRuntime } from '../../../../shared/model/server.js';
import { HostError } from '../../errors.js';
import { expandEnvReferences, expandEnvReferencesIn } from '../config/env-references.js';
import { fillSecrets } from './setting-references.js';
import { otherPythonName, runtimeNeed } from './runtime-needs.js';
import type { HostEnvironment } from './login-env.js';
import { inheritedEnvironment } from './login-env.js';
import type { StdioLaunch } from './stdio-transport.js';

/** The app's own Node runtime: Electron's binary in Node mode, or the Node running the headless host. */
export interface AppRuntime {
  execPath: string;
  /** True inside Electron: the binary must be told to behave as Node. */
  electron: boolean;
  /** e.g. "v20.20.0". */
  nodeVersion: string;
}

export const currentRuntime = (): AppRuntime => ({
  execPath: process.execPath,
  electron: typeof process.versions.electron === 'string',
  nodeVersion: process.version,
});

export interface ResolvedLaunch {
  launch: StdioLaunch;
  runtime: ServerRuntime;
}

/**
 * Turns a stored stdio configuration into what is spawned: `${env:NAME}`
 * expanded in command, args, env values and cwd (never in a bundle's entry); the server's env laid over
 * the inherited one; cwd checked; and `node`/`npx` mapped to the app's own
 * runtime when the PATH has none:
 *
 * - `node` → the system `node` on the PATH if any, else the app runtime
 *   (`process.execPath`, with ELECTRON_RUN_AS_NODE=1 inside Electron).
 * - `npx` → the system `npx` if any, else npm's `npx-cli.js` shipped beside
 *   the app runtime (a Node install has it; Electron does not), run by it.
 *   Without either it is "not found", naming the PATH searched.
 * - `uvx`, `uv`, `python`, `python3`, `docker` not on the PATH: fails at once
 *   with one line naming what to install and how (runtime-needs.ts).
 */
export async function resolveLaunch(
  name: string,
  config: StdioServerConfig,
  environment: HostEnvironment,
  runtime: AppRuntime = currentRuntime(),
  secrets?: Readonly<Record<string, string>>,
): Promise<ResolvedLaunch> {
  const vars = environment.all;
  const where = `Server "${name}"`;
  // Every text of a bundle's entry came from the bundle or its settings: a bundle never reads
  // the person's environment, however its text was assembled, so `${env:…}` stays as written.
  const fromBundle = config.bundle !== undefined;
  const expand = (text: string, at: string) => (fromBundle ? text : expandEnvReferences(text, vars, at));
  // A bundle's sensitive settings are filled in last, so a secret holding "${env:X}" stays as typed.
  const fill = (text: string) => (secrets ? fillSecrets(text, secrets) : text);
  const command = fill(expand(config.command, `${where} command`));
  const args = (config.args ?? []).map((arg, i) => fill(expand(arg, `${where} argument ${String(i + 1)}`)));
  const serverEnv = fromBundle
    ? { ...config.env }
    : expandEnvReferencesIn(config.env ?? {}, vars, `${where} env`);
  const env = {
    ...inheritedEnvironment(vars),
    ...Object.fromEntries(Object.entries(serverEnv).map(([key, value]) => [key, fill(value)])),
  };
  const rawCwd = config.cwd?.trim();
  const cwd = rawCwd ? expand(rawCwd, `${where} cwd`) : undefined;
  if (cwd !== undefined) {
    const ok = await stat(cwd).then(
      (s) => s.isDirectory(),
      () => false,
    );
    if (!ok) throw new HostError('connection_failed', `Working directory does not exist: ${cwd}`);
  }

  const explicit = isAbsolute(command) || command.includes('/') || command.includes('\\');
  if (explicit) {
    return { launch: { command, args, env, cwd }, runtime: { source: 'explicit', executable: command } };
  }
  const pathValue = env.PATH ?? env.Path ?? '';
  const found = await findOnPath(command, pathValue, env.PATHEXT);
  if (found !== undefined) {
    return { launch: { command, args, env, cwd }, runtime: { source: 'path', executable: found } };
  }
  const base = command.replace(/\.(exe|cmd)$/i, '').toLowerCase();
  if (base === 'node') {
    return appRuntimeLaunch(runtime, [], args, env, cwd, 'node');
  }
  if (base === 'npx') {
    const npxCli = await npxBesideRuntime(runtime);
    if (npxCli !== undefined) return appRuntimeLaunch(runtime, [npxCli], args, env, cwd, 'npx');
  }
  const need = runtimeNeed(base);
  if (need !== undefined && base !== 'npx') {
    // A missing runtime is one line saying what to install, at once, never a spawn error or a timeout.
    const other = otherPythonName(base);
    const instead =
      other !== undefined && (await findOnPath(other, pathValue, env.PATHEXT)) !== undefined
        ? `"${other}" is installed: use it as the command`
        : need.how;
    throw new HostError(
      'connection_failed',
      `${where} needs ${need.what}, not found on this machine; ${instead}`,
    );
  }
  // Let the spawn fail: its error names the command and the PATH searched.
  return { launch: { command, args, env, cwd }, runtime: { source: 'path', executable: command } };
}

function appRuntimeLaunch(
  runtime: AppRuntime,
  prefix: string[],
  args: string[],
  env: Record<string, string>,
  cwd: string | undefined,
  what: 'node' | 'npx',
): ResolvedLaunch {
  const runEnv = runtime.electron ? { ...env, ELECTRON_RUN_AS_NODE: '1' } : env;
  // Children of the server that run `node` (npx does) find the same runtime first.
  const binDir = dirname(runtime.execPath);
  const pathKey = 'Path' in runEnv && !('PATH' in runEnv) ? 'Path' : 'PATH';
  runEnv[pathKey] = [binDir, runEnv[pathKey] ?? ''].filter((p) => p !== '').join(delimiter);
  const label = runtime.electron ? `Electron's Node ${runtime.nodeVersion}` : `Node ${runtime.nodeVersion}`;
  return {
    launch: { command: runtime.execPath, args: [...prefix, ...args], env: runEnv, cwd },
    runtime: {
      source: 'app-runtime',
      executable: runtime.execPath,
      note: `${what} not found on PATH: using the app's own runtime (${label})`,
    },
  };
}

/** The first executable `command` on `pathValue`, like the shell would pick it. */
export async function findOnPath(
  command: string,
  pathValue: string,
  pathExt: string | undefined,
): Promise<string | undefined> {
  const extensions =
    process.platform === 'win32' ? ['', ...(pathExt ?? '.COM;.EXE;.BAT;.CMD').split(';')] : [''];
  for (const dir of pathValue.split(delimiter)) {
    if (dir === '') continue;
    for (const ext of extensions) {
      const candidate = join(dir, command + ext);
      const usable = await access(candidate, constants.X_OK).then(
        () => stat(candidate).then((s) => s.isFile()),
        () => false,
      );
      if (usable) return candidate;
    }
  }
  return undefined;
}

/** npm's npx entry point in a Node install: <prefix>/lib/node_modules/npm (POSIX) or <prefix>/node_modules/npm (Windows). */
export async function npxBesideRuntime(runtime: AppRuntime): Promise<string | undefined> {
  if (runtime.electron) return undefined;
  const binDir = dirname(runtime.execPath);
  const candidates = [
    join(binDir, '..', 'lib', 'node_modules', 'npm', 'bin', 'npx-cli.js'),
    join(binDir, 'node_modules', 'npm', 'bin', 'npx-cli.js'),
  ];
  for (const candidate of candidates) {
    if (
      await access(candidate).then(
        () => true,
        () => false,
      )
    )
      return candidate;
  }
  return undefined;
}
