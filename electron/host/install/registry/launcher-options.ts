import { homedir } from 'node:os';

/**
 * The options a registry entry adds to the launcher (`runtimeArguments`:
 * between `npx`/`uvx`/`docker run` and the package). They run with the
 * person's rights before the package does, so they are read as hostile:
 *
 * - refused: options that change where the package comes from (another
 *   registry or index, a git URL or a path, a different package, a script
 *   instead of the package) or give a container the host (privileged mode,
 *   the host's network, process or IPC namespace, capabilities, devices,
 *   security profiles, the root or home folder mounted);
 * - warned about, visibly, with their values: every other option.
 *
 * A few options every ordinary command line has are taken without a word
 * (`quiet`).
 */

export type Launcher = 'npx' | 'uvx' | 'docker';

export interface LauncherVerdict {
  /** Why the entry cannot be installed, in one line; absent when it can. */
  refused?: string;
  /** The options the person should read (as they will run); empty when there are none. */
  shown: string[];
}

/** One option as written: `--flag=value`, `--flag value` or `-f value`, split. */
interface Option {
  flag: string;
  value?: string | undefined;
  /** The tokens as they will appear on the command line. */
  text: string;
}

/** uvx flags that name where packages come from (an index or a folder of files). */
const UVX_INDEX_FLAGS: readonly string[] = [
  '--index',
  '--default-index',
  '--index-url',
  '-i',
  '--extra-index-url',
  '--find-links',
  '-f',
];

/** Flags that take the next token as their value (when not written `--flag=value`). */
const VALUE_FLAGS: Record<Launcher, ReadonlySet<string>> = {
  npx: new Set([
    '-c',
    '--call',
    '-p',
    '--package',
    '--registry',
    '--userconfig',
    '--globalconfig',
    '--prefix',
    '--cache',
    '--node-options',
    '--script-shell',
    '--shell',
    '--ca',
    '--cafile',
    '--proxy',
    '--https-proxy',
    '-w',
    '--workspace',
    '--loglevel',
    '--omit',
    '--include',
    '--before',
    '--location',
    '--fetch-retries',
    '--fetch-timeout',
  ]),
  uvx: new Set([
    '--from',
    '--with',
    '-w',
    '--with-editable',
    '--with-requirements',
    ...UVX_INDEX_FLAGS,
    '--python',
    '-p',
    '--config-file',
    '--env-file',
    '--directory',
    '--project',
    '--allow-insecure-host',
    '--keyring-provider',
    '--index-strategy',
    '--cache-dir',
  ]),
  docker: new Set([
    '-v',
    '--volume',
    '--mount',
    '--network',
    '--net',
    '--pid',
    '--ipc',
    '--uts',
    '--userns',
    '--cgroupns',
    '--cap-add',
    '--cap-drop',
    '--device',
    '--device-cgroup-rule',
    '--security-opt',
    '--volumes-from',
    '--env-file',
    '-e',
    '--env',
    '-p',
    '--publish',
    '-u',
    '--user',
    '--entrypoint',
    '--platform',
    '--pull',
    '-w',
    '--workdir',
    '--runtime',
    '--name',
    '--memory',
    '-m',
    '--cpus',
  ]),
};

/** Splits the launcher options; an unknown `-x` is taken as a flag without a value. */
export function splitOptions(launcher: Launcher, tokens: readonly string[]): Option[] {
  const options: Option[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] ?? '';
    const eq = token.startsWith('--') ? token.indexOf('=') : -1;
    if (eq > 0) {
      options.push({ flag: token.slice(0, eq), value: token.slice(eq + 1), text: token });
    } else if (VALUE_FLAGS[launcher].has(token) && i + 1 < tokens.length) {
      const value = tokens[i + 1] ?? '';
      options.push({ flag: token, value, text: `${token} ${value}` });
      i++;
    } else {
      options.push({ flag: token, text: token });
    }
  }
  return options;
}

/** A value that names a place rather than a package: a URL, a git source, or a path. */
const SOURCE_NOT_A_NAME = /(^[a-z][a-z0-9+.-]*:)|[/\\]|^\.|^~/i;

/**
 * The verdict on a launcher's options. `identifier` is the package the
 * entry names (an option may repeat it, e.g. `uvx --from pkg`).
 */
export function judgeOptions(
  launcher: Launcher,
  tokens: readonly string[],
  identifier: string,
): LauncherVerdict {
  const options = splitOptions(launcher, tokens);
  for (const option of options) {
    const why = refusal(launcher, option, identifier);
    if (why !== undefined) return { refused: `Its launcher option ${option.text} ${why}`, shown: [] };
  }
  const shown = options.filter((o) => !quiet(launcher, o)).map((o) => o.text);
  return { shown };
}

/**
 * Options every ordinary command line has, taken without a word: npx's
 * `-y`; docker's `-i`, `--rm`, `--init`, and `-e NAME` without a value (the
 * variable's value is the entry's own, shown with the others).
 */
function quiet(launcher: Launcher, { flag, value }: Option): boolean {
  if (launcher === 'npx') return flag === '-y' || flag === '--yes';
  if (launcher === 'docker') {
    if (['-i', '--interactive', '--rm', '--init'].includes(flag)) return true;
    return (
      (flag === '-e' || flag === '--env') && value !== undefined && /^[A-Za-z_][A-Za-z0-9_]*$/.test(value)
    );
  }
  return false;
}

function refusal(launcher: Launcher, option: Option, identifier: string): string | undefined {
  if (launcher === 'npx') return npxRefusal(option, identifier);
  if (launcher === 'uvx') return uvxRefusal(option, identifier);
  return dockerRefusal(option);
}

const ELSEWHERE = 'changes where the package comes from';

function npxRefusal({ flag, value }: Option, identifier: string): string | undefined {
  const name = flag.toLowerCase();
  if (name === '-c' || name === '--call') return 'runs a command instead of the package';
  if (name === '-p' || name === '--package') {
    const bare = (value ?? '').replace(/@[^@/]*$/, '');
    return bare === identifier ? undefined : 'runs another package than the entry names';
  }
  if (
    [
      '--registry',
      '--userconfig',
      '--globalconfig',
      '--prefix',
      '--cache',
      '--ca',
      '--cafile',
      '--strict-ssl',
      '--proxy',
      '--https-proxy',
    ].includes(name) ||
    /^--@[^:]+:registry$/.test(name) ||
    name.startsWith('--//')
  )
    return ELSEWHERE;
  if (['--node-options', '--script-shell', '--shell'].includes(name))
    return 'changes what npm runs before the package';
  return undefined;
}

function uvxRefusal({ flag, value }: Option, identifier: string): string | undefined {
  const name = flag.toLowerCase();
  if (name === '--from') {
    const requirement = (value ?? '').split(/[=<>!~[ ;@]/)[0] ?? '';
    if (SOURCE_NOT_A_NAME.test(value ?? '') || normalized(requirement) !== normalized(identifier))
      return ELSEWHERE;
    return undefined;
  }
  if (
    [
      ...UVX_INDEX_FLAGS,
      '--allow-insecure-host',
      '--config-file',
      '--directory',
      '--project',
      '--with-editable',
      '--with-requirements',
    ].includes(name)
  )
    return ELSEWHERE;
  if ((name === '--with' || name === '-w') && SOURCE_NOT_A_NAME.test(value ?? ''))
    return 'adds a package from a URL or a path';
  if ((name === '--python' || name === '-p') && SOURCE_NOT_A_NAME.test(value ?? ''))
    return 'runs another program as Python';
  if (name === '--env-file') return 'loads environment variables from a file';
  return undefined;
}

/** PEP 503 name comparison. */
function normalized(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

function dockerRefusal({ flag, value }: Option): string | undefined {
  const name = flag.toLowerCase();
  const host = 'gives the container access to your computer';
  if (name === '--privileged') return host;
  if (['--pid', '--ipc', '--uts', '--userns', '--cgroupns'].includes(name) && value === 'host') return host;
  if ((name === '--network' || name === '--net') && (value === 'host' || value?.startsWith('container:')))
    return host;
  if (['--cap-add', '--device', '--device-cgroup-rule', '--security-opt', '--volumes-from'].includes(name))
    return host;
  if (name === '--env-file') return 'loads environment variables from a file on your computer';
  if (name === '-v' || name === '--volume') {
    const source = (value ?? '').split(':')[0] ?? '';
    return sensitiveHostPath(source) ? host : undefined;
  }
  if (name === '--mount') {
    const parts = Object.fromEntries(
      (value ?? '').split(',').map((part) => {
        const at = part.indexOf('=');
        return at < 0 ? [part, ''] : [part.slice(0, at), part.slice(at + 1)];
      }),
    );
    const source = parts.source ?? parts.src ?? '';
    return parts.type !== 'volume' && parts.type !== 'tmpfs' && sensitiveHostPath(source) ? host : undefined;
  }
  return undefined;
}

/** The root, a system folder, the home folder (or any user's), or docker's own socket. */
function sensitiveHostPath(source: string): boolean {
  const path = source.trim().replace(/[\\/]+$/, '') || '/';
  if (/docker\.sock/i.test(path)) return true;
  if (/^(~|\$HOME|\$\{HOME\}|%USERPROFILE%)$/i.test(path)) return true;
  if (/^(~|\$HOME|\$\{HOME\}|%USERPROFILE%)[\\/]\./i.test(path)) return true;
  if (path === '/' || /^[A-Za-z]:$/.test(path)) return true;
  const home = homedir().replace(/[\\/]+$/, '');
  if (path === home || path.startsWith(`${home}/.`)) return true;
  // A home's hidden folders hold keys and credentials (~/.ssh, ~/.aws, ~/.config).
  if (/^\/(home|Users)\/[^/]+(\/\.|$)/.test(path)) return true;
  if (/^\/(etc|root|proc|sys|dev|boot|run|var\/run)(\/|$)/i.test(path)) return true;
  return /^\/(home|Users|var|usr|bin|sbin|lib|lib64|opt|private|System|Library)$/i.test(path);
}

/**
 * Where a full command line's launcher options are (an install link's
 * `npx …`, `uvx …`, `docker run …`): the argument indices `[from, to)` and
 * the package they come before. Undefined when the line has no package
 * (or is another docker command).
 */
export function leadingOptions(
  launcher: Launcher,
  args: readonly string[],
): { from: number; to: number; identifier: string } | undefined {
  const from = launcher === 'docker' ? 1 : 0;
  if (launcher === 'docker' && args[0] !== 'run') return undefined;
  let i = from;
  while (i < args.length) {
    const token = args[i] ?? '';
    if (!token.startsWith('-')) break;
    const takesValue = !token.includes('=') && VALUE_FLAGS[launcher].has(token);
    i += takesValue ? 2 : 1;
  }
  const spec = args[i];
  if (spec === undefined) return undefined;
  const identifier =
    launcher === 'npx'
      ? spec.replace(/(.)@[^@/]*$/, '$1')
      : launcher === 'uvx'
        ? (spec.split(/[=<>!~[ ;@]/)[0] ?? spec)
        : spec;
  return { from, to: Math.min(i, args.length), identifier };
}
