import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type {
  SandboxConfig,
  SandboxNetwork,
  SandboxPolicySummary,
} from '../../../../../shared/model/sandbox.js';

/**
 * The effective sandbox policy of one local server, in host paths. Reads are
 * allowed everywhere (system folders, runtimes, packages) except `denyRead`;
 * writes are denied everywhere except `write`. Order matters when the
 * wrapper builds the mounts: granted writes, then the denials, then what the
 * person allowed explicitly (which wins over a denial), then the state folder.
 */
export interface SandboxPolicy {
  /** Folders hidden from the server (it gets "permission denied"). */
  denyDirs: string[];
  /** Files read as empty. */
  denyFiles: string[];
  /** Folders shown empty apart from the server's own state folder: the app's data folder. */
  hideDirs: string[];
  /** Read-only inside a hidden folder: the server's own bundle files. */
  exposeDirs: string[];
  /**
   * Read-only under the private /tmp: the top-level folders the entry runs
   * from (mounted before the masks, so the app's data folder and secrets
   * inside them stay hidden).
   */
  tmpDirs: string[];
  /** Writable, granted by the defaults (its roots, folder arguments, launcher caches). */
  write: string[];
  /** Writable, allowed explicitly by the person. */
  allowWrite: string[];
  /** Readable, allowed explicitly by the person. */
  allowRead: string[];
  /** The server's own state folder: writable. */
  stateFolder: string;
  /** The private folder mounted at /tmp. */
  privateTmp: string;
  /** What the server view shows of the network. */
  network: SandboxNetwork;
  /** What its filtering proxy lets through: `sandbox.allowHosts`, `sandbox.denyHosts`, the launcher's registry. */
  hosts: { allow: string[]; deny: string[]; download: string[] };
}

/** Under the home folder: secrets no server gets to read by default. */
export const HOME_SECRET_DIRS: readonly string[] = [
  '.ssh',
  '.aws',
  '.azure',
  '.config/gcloud',
  '.kube',
  '.gnupg',
  '.password-store',
  '.local/share/keyrings',
  '.config/gh',
  '.docker',
  // Browser profiles.
  '.mozilla',
  '.config/google-chrome',
  '.config/chromium',
  '.config/BraveSoftware',
  '.config/microsoft-edge',
  '.config/vivaldi',
  'snap/firefox',
  'snap/chromium',
  '.var/app/org.mozilla.firefox',
  '.var/app/com.google.Chrome',
];

/** Under the home folder: single files with tokens or history. */
export const HOME_SECRET_FILES: readonly string[] = [
  '.npmrc',
  '.pypirc',
  '.netrc',
  '.git-credentials',
  '.bash_history',
  '.zsh_history',
  '.history',
  '.python_history',
  '.node_repl_history',
  '.psql_history',
  '.mysql_history',
  '.lesshst',
  '.local/share/fish/fish_history',
];

/** Launchers and the caches they download into (writable so the first run can fill them). */
const LAUNCHER_CACHES: Readonly<Record<string, readonly string[]>> = {
  npx: ['.npm'],
  npm: ['.npm'],
  pnpm: ['.local/share/pnpm', '.cache/pnpm'],
  yarn: ['.cache/yarn'],
  bunx: ['.bun'],
  uvx: ['.cache/uv', '.local/share/uv'],
  uv: ['.cache/uv', '.local/share/uv'],
  pipx: ['.local/pipx', '.cache/pip'],
};

/** The registry each launcher downloads from (allowed until the server has started). */
const PYPI = ['pypi.org', 'files.pythonhosted.org'];
const LAUNCHER_REGISTRIES: Readonly<Record<string, readonly string[]>> = {
  npx: ['registry.npmjs.org'],
  npm: ['registry.npmjs.org'],
  pnpm: ['registry.npmjs.org'],
  yarn: ['registry.yarnpkg.com', 'registry.npmjs.org'],
  bunx: ['registry.npmjs.org'],
  uvx: PYPI,
  uv: PYPI,
  pipx: PYPI,
};

export interface PolicyInput {
  home: string;
  /** The app's data folder (tokens, secrets, audit trail, other servers' state). */
  appDataDir: string;
  stateFolder: string;
  privateTmp: string;
  /** The launcher's name (npx, uvx, …) when the command runs through one. */
  launcher: string | undefined;
  command: string;
  args: readonly string[];
  /** Root URIs of the entry (file:// only). */
  roots: readonly string[];
  cwd: string | undefined;
  config: SandboxConfig | undefined;
}

const expandHome = (path: string, home: string): string =>
  path === '~' ? home : path.startsWith('~/') ? join(home, path.slice(2)) : path;

const isDir = (path: string): boolean => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/** Arguments that are absolute paths of existing folders: confirmed with the command when it was added. */
export function folderArguments(args: readonly string[], home: string): string[] {
  const found: string[] = [];
  for (const arg of args) {
    const value = arg.includes('=') && !arg.startsWith('/') ? arg.slice(arg.indexOf('=') + 1) : arg;
    const path = expandHome(value, home);
    if (isAbsolute(path) && resolve(path) !== '/' && isDir(path)) found.push(resolve(path));
  }
  return found;
}

const rootPaths = (roots: readonly string[]): string[] =>
  roots.flatMap((uri) => {
    try {
      const path = fileURLToPath(uri);
      return isDir(path) ? [path] : [];
    } catch {
      return [];
    }
  });

/** A bundle's files live in the app's data folder: the folder its command, arguments or cwd point into. */
function bundleFolders(input: PolicyInput): string[] {
  const bundles = join(input.appDataDir, 'bundles');
  const found: string[] = [];
  for (const text of [input.command, ...input.args, input.cwd ?? '']) {
    if (!text.startsWith(`${bundles}/`)) continue;
    const top = text.slice(bundles.length + 1).split('/')[0];
    if (top !== undefined && top !== '' && top !== '..' && isDir(join(bundles, top)))
      found.push(join(bundles, top));
  }
  return unique(found);
}

/**
 * The sandbox's /tmp is private: a program, script or working folder the
 * entry names under the host's /tmp stays readable with the whole top-level
 * folder it is in (a checkout or an unpacked package: its node_modules and
 * siblings are what its imports resolve to). Secrets inside it stay masked:
 * these are mounted before the masks (bwrap-launch.ts).
 */
function tmpFolders(input: PolicyInput): string[] {
  const found: string[] = [];
  for (const text of [input.command, ...input.args, ...(input.cwd !== undefined ? [input.cwd] : [])]) {
    if (!text.startsWith('/tmp/')) continue;
    const top = join('/tmp', text.slice('/tmp/'.length).split('/')[0] ?? '');
    // A file, or one still to come (a marker another program creates): its folder, where it exists.
    if (top !== '/tmp' && isDir(top)) found.push(top);
  }
  return unique(found);
}

const within = (path: string, dirs: readonly string[]): boolean =>
  dirs.some((dir) => path === dir || path.startsWith(`${dir}/`));

const unique = (paths: readonly string[]): string[] => [...new Set(paths)];

/** The default policy for one server, with what the person configured laid over it. */
export function defaultPolicy(input: PolicyInput): SandboxPolicy {
  const { home, config } = input;
  const caches = input.launcher ? (LAUNCHER_CACHES[input.launcher] ?? []).map((p) => join(home, p)) : [];
  const download = input.launcher ? [...(LAUNCHER_REGISTRIES[input.launcher] ?? [])] : [];
  const allowHosts = unique(config?.allowHosts ?? []);
  const denyHosts = unique(config?.denyHosts ?? []);
  const network: SandboxNetwork = {
    mode: 'filtered',
    hosts: unique([...allowHosts, ...download]),
    ...(denyHosts.length > 0 ? { denied: denyHosts } : {}),
    reason:
      download.length > 0
        ? `${input.launcher ?? 'the launcher'} may download from ${download.join(', ')} while it starts; you are asked about other hosts`
        : 'you are asked about other hosts; loopback and private addresses only when allowed exactly',
  };
  const absolute = (paths: readonly string[] | undefined): string[] =>
    (paths ?? []).map((p) => resolve(expandHome(p, home)));
  const write = unique([...rootPaths(input.roots), ...folderArguments(input.args, home), ...caches]);
  return {
    denyDirs: HOME_SECRET_DIRS.map((p) => join(home, p)).filter(isDir),
    denyFiles: [...HOME_SECRET_FILES.map((p) => join(home, p)), join(home, '.docker/config.json')].filter(
      (p) => existsSync(p) && !isDir(p),
    ),
    hideDirs: [input.appDataDir],
    // Read-only, unless granted for writing already (a later read-only mount would win).
    exposeDirs: bundleFolders(input).filter((dir) => !within(dir, write)),
    tmpDirs: tmpFolders(input).filter((dir) => !within(dir, write)),
    write,
    allowWrite: unique(absolute(config?.allowWrite)),
    allowRead: unique(absolute(config?.allowRead)),
    stateFolder: input.stateFolder,
    privateTmp: input.privateTmp,
    network,
    hosts: { allow: allowHosts, deny: denyHosts, download },
  };
}

/** The launcher caches of a policy that must exist before the launch (a read-only home cannot create them). */
export const launcherCaches = (launcher: string | undefined, home: string): string[] =>
  launcher ? (LAUNCHER_CACHES[launcher] ?? []).map((p) => join(home, p)) : [];

/** The policy as people see it: home shown as ~. */
export function summarize(policy: SandboxPolicy, home: string): SandboxPolicySummary {
  const show = (path: string): string =>
    path === home ? '~' : path.startsWith(`${home}/`) ? `~/${path.slice(home.length + 1)}` : path;
  return {
    denyRead: [...policy.denyDirs, ...policy.denyFiles, ...policy.hideDirs].map(show),
    allowRead: policy.allowRead.map(show),
    write: [policy.stateFolder, '/tmp (private)', ...policy.write, ...policy.allowWrite].map(show),
    network: policy.network,
    stateFolder: show(policy.stateFolder),
  };
}
