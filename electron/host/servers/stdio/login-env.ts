import { delimiter } from 'node:path';
import { shellEnv } from 'shell-env';

/**
 * The environment a desktop app should have had. An app started from the
 * dock or a launcher does not inherit the PATH the user's shell profile sets
 * up (nvm, Homebrew, Volta, asdf …), so `npx` is "not found" although it works
 * in a terminal. We ask the user's login shell once per host start (with a
 * time limit, in the background) and lay its variables over the process's own.
 */
export interface HostEnvironment {
  /** Every variable known to the host: the login shell's over the process's. `${env:NAME}` reads this. */
  readonly all: Readonly<Record<string, string>>;
  /** Where `all` came from, for the log: "login shell (/bin/zsh)", or why the process env was used. */
  readonly source: string;
}

export interface LoginEnvOptions {
  /** Default 5 s: a shell profile that prompts or hangs must not hold up the servers. */
  timeoutMs?: number;
  /** Reads the login shell's variables; injectable for tests. Default: shell-env. */
  read?: () => Promise<Readonly<Record<string, string | undefined>>>;
  processEnv?: Readonly<Record<string, string | undefined>>;
  platform?: NodeJS.Platform;
}

/** Resolves the host environment once; never rejects (falls back to the process env with the reason). */
export async function resolveHostEnvironment(options: LoginEnvOptions = {}): Promise<HostEnvironment> {
  const processEnv = definedOnly(options.processEnv ?? process.env);
  const platform = options.platform ?? process.platform;
  if (platform === 'win32') {
    // Windows apps get the user's environment from the system, not a shell profile.
    return { all: processEnv, source: 'process environment (Windows has no login shell to ask)' };
  }
  if (process.env.MCP_HOST_SKIP_LOGIN_SHELL === '1' && options.read === undefined) {
    return { all: processEnv, source: 'process environment (MCP_HOST_SKIP_LOGIN_SHELL=1)' };
  }
  const timeoutMs = options.timeoutMs ?? 5000;
  const read = options.read ?? (() => shellEnv());
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => {
      resolve('timeout');
    }, timeoutMs);
    timer.unref();
  });
  try {
    const login = await Promise.race([read(), timedOut]);
    if (login === 'timeout') {
      return {
        all: processEnv,
        source: `process environment (the login shell did not answer within ${String(timeoutMs)} ms)`,
      };
    }
    const shell = processEnv.SHELL ?? 'default shell';
    return { all: mergeEnvironments(processEnv, definedOnly(login)), source: `login shell (${shell})` };
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : 'unknown error';
    return { all: processEnv, source: `process environment (reading the login shell failed: ${reason})` };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The login shell's variables over the process's; PATH is the login shell's
 * followed by any entry only the process had (an app bundle's own bin folder
 * must not get lost).
 */
export function mergeEnvironments(
  processEnv: Readonly<Record<string, string>>,
  login: Readonly<Record<string, string>>,
): Record<string, string> {
  const merged: Record<string, string> = { ...processEnv, ...login };
  const pathKey = Object.keys(login).find((k) => k.toUpperCase() === 'PATH') ?? 'PATH';
  const entries = [login[pathKey], processEnv[pathKey] ?? processEnv.PATH]
    .flatMap((p) => (p ?? '').split(delimiter))
    .filter((entry) => entry !== '');
  if (entries.length > 0) merged[pathKey] = [...new Set(entries)].join(delimiter);
  // Variables the shell sets for its own session mean nothing to a server.
  for (const key of SHELL_SESSION_VARIABLES) {
    if (processEnv[key] !== undefined) merged[key] = processEnv[key];
    // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- a fixed list of names
    else delete merged[key];
  }
  return merged;
}

const SHELL_SESSION_VARIABLES = ['_', 'SHLVL', 'PWD', 'OLDPWD'];

/**
 * What a server inherits: a short list of variables every program expects
 * (PATH from the login shell, HOME, USER, locale, temp folders) and the ones
 * version managers' shims need. Nothing else, so the host's own secrets (an
 * API key in its environment or shell profile) never reach a server unless
 * its configuration asks for them with `${env:NAME}`.
 */
export function inheritedEnvironment(all: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(all)) {
    if (INHERITED.has(key.toUpperCase())) out[key] = value;
  }
  return out;
}

const INHERITED = new Set([
  // POSIX basics (the SDK's safe list) and Windows equivalents.
  'HOME',
  'LOGNAME',
  'PATH',
  'SHELL',
  'TERM',
  'USER',
  'APPDATA',
  'HOMEDRIVE',
  'HOMEPATH',
  'LOCALAPPDATA',
  'PATHEXT',
  'PROCESSOR_ARCHITECTURE',
  'SYSTEMDRIVE',
  'SYSTEMROOT',
  'USERNAME',
  'USERPROFILE',
  'PROGRAMFILES',
  'COMSPEC',
  // Locale, time zone and temp folders.
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  'TMPDIR',
  'TMP',
  'TEMP',
  'XDG_RUNTIME_DIR',
  // Version managers whose shims need their home to find the real binary.
  'NVM_DIR',
  'NVM_BIN',
  'VOLTA_HOME',
  'FNM_DIR',
  'FNM_MULTISHELL_PATH',
  'ASDF_DIR',
  'ASDF_DATA_DIR',
  'MISE_DATA_DIR',
  'PNPM_HOME',
  'BUN_INSTALL',
  'HOMEBREW_PREFIX',
  'PYENV_ROOT',
  'UV_PYTHON_INSTALL_DIR',
  'CARGO_HOME',
  'RUSTUP_HOME',
  'GOPATH',
]);

function definedOnly(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  return out;
}

let cached: Promise<HostEnvironment> | undefined;

/**
 * The host environment, resolved once per process and shared by every
 * server. The first caller starts the resolution; nobody waits for it but a
 * stdio server about to be spawned.
 */
export function hostEnvironment(): Promise<HostEnvironment> {
  cached ??= resolveHostEnvironment();
  return cached;
}
