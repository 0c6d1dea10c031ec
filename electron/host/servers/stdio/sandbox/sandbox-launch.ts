import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { StdioServerConfig } from '../../../../../shared/model/config.js';
import type { ServerSandbox } from '../../../../../shared/model/sandbox.js';
import { HostError } from '../../../errors.js';
import { launcherOf } from '../launcher-output.js';
import type { StdioLaunch } from '../stdio-transport.js';
import { spawnFailure } from '../stdio-transport.js';
import { sandboxedLaunch } from './bwrap-launch.js';
import type { SandboxAvailability } from './sandbox-availability.js';
import type { SandboxPolicy } from './sandbox-policy.js';
import { defaultPolicy, launcherCaches, summarize } from './sandbox-policy.js';
import type { SandboxNetworkServices, ServerNetwork } from './network/proxy-launch.js';
import { startServerNetwork } from './network/proxy-launch.js';
import { nodeProxyPreload } from './network/node-preload.js';

/** What the host gives the stdio transport to sandbox its servers. */
export interface SandboxServices {
  /** The app's data folder: hidden from every server. */
  appDataDir: string;
  /** Where the per-server state folders live (inside the data folder: the only part a server sees). */
  stateRoot: string;
  /** Whether the sandbox works here (detected once, then remembered). */
  availability: () => Promise<SandboxAvailability>;
  /** The home folder whose secrets are hidden; default the person's. */
  home?: string;
  /** The preload routing Node servers' fetch through their proxy; default the built one, if built. */
  nodePreload?: string;
  /** Who is asked about hosts a server was not allowed; absent: nobody (they are denied). */
  network?: SandboxNetworkServices;
}

/**
 * Inside the sandbox a missing command would be bubblewrap's failure; it is
 * looked up first so the person reads the same line as without a sandbox.
 */
async function mustExist(launch: StdioLaunch): Promise<string> {
  const { command, env } = launch;
  const candidates = command.includes('/')
    ? [command]
    : (env.PATH ?? env.Path ?? '')
        .split(delimiter)
        .filter((dir) => dir !== '')
        .map((dir) => join(dir, command));
  for (const candidate of candidates) {
    const found = await access(candidate, constants.X_OK).then(
      () => true,
      () => false,
    );
    if (found) return candidate;
  }
  const missing: NodeJS.ErrnoException = Object.assign(new Error(`${command} not found`), { code: 'ENOENT' });
  throw spawnFailure(missing, command, env);
}

/**
 * The sandbox's helpers were found when the host first needed them; one
 * removed since (bubblewrap or socat uninstalled mid-session) fails this
 * server's start with one line: it never runs unconfined instead.
 */
async function helpersStillThere(helpers: { bwrap: string; socat: string }): Promise<void> {
  for (const [name, path, pkg] of [
    ['bubblewrap', helpers.bwrap, 'bubblewrap'],
    ['socat', helpers.socat, 'socat'],
  ] as const) {
    const there = await access(path, constants.X_OK).then(
      () => true,
      () => false,
    );
    if (!there) {
      throw new HostError(
        'connection_failed',
        `The sandbox's ${name} (${path}) is gone since the app started: install ${pkg} again, or turn the sandbox off for this server in its Settings`,
      );
    }
  }
}

export const STATE_FOLDER_NAME = 'server-state';

/** One folder per server identity: its name made safe, and a digest of what it runs. */
export function stateFolderName(name: string, identity: string): string {
  const safe = name.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 40);
  const digest = createHash('sha256').update(identity).digest('hex').slice(0, 12);
  return `${safe}-${digest}`;
}

export interface SandboxedStart {
  launch: StdioLaunch;
  /** What the server view shows. */
  sandbox: ServerSandbox;
  /** When on: the policy applied. */
  policy?: SandboxPolicy;
  /** When on: the server's network proxy, to close when its process ends. */
  network?: ServerNetwork;
  home: string;
}

/** "npx", "uvx", "pnpm" (of "pnpm dlx"), or undefined for a command that runs no launcher. */
const launcherName = (config: StdioServerConfig): string | undefined =>
  launcherOf(config.command, config.args ?? [])?.name.split(' ')[0];

/** The policy a server would run under (for the CLI and the server view), without creating anything. */
export function policyFor(
  config: StdioServerConfig,
  services: Pick<SandboxServices, 'appDataDir' | 'stateRoot' | 'home'>,
  identity: string,
  name: string,
  launcher = launcherName(config),
): SandboxPolicy {
  const home = services.home ?? homedir();
  const folder = join(services.stateRoot, stateFolderName(name, identity));
  return defaultPolicy({
    home,
    appDataDir: services.appDataDir,
    stateFolder: join(folder, 'data'),
    privateTmp: join(folder, 'tmp'),
    launcher,
    command: config.command,
    args: config.args ?? [],
    roots: config.roots ?? [],
    cwd: config.cwd,
    config: config.sandbox,
  });
}

/**
 * The one place a stdio launch is put in the sandbox: off when the person
 * turned it off or it cannot work here (saying why and what to do), else
 * the state folder and private /tmp are created, the server's network
 * proxy started and the launch wrapped.
 */
export async function sandboxStart(
  name: string,
  config: StdioServerConfig,
  identity: string,
  launch: StdioLaunch,
  services: SandboxServices | undefined,
  onBlocked: (attempt: string, reason: string) => void = () => undefined,
): Promise<SandboxedStart> {
  const home = services?.home ?? homedir();
  if (services === undefined) {
    return { launch, home, sandbox: { state: 'off', reason: 'this host runs servers without a sandbox' } };
  }
  if (config.sandbox?.enabled === false) {
    return { launch, home, sandbox: { state: 'off', reason: 'turned off for this server' } };
  }
  const availability = await services.availability();
  if (!availability.available) {
    return { launch, home, sandbox: { state: 'off', reason: availability.reason, fix: availability.fix } };
  }
  await helpersStillThere(availability);
  // The program as found on the PATH: its folder may be one the sandbox hides (a tool under /tmp).
  const found = { ...launch, command: await mustExist(launch) };
  // The launch as resolved: ${env:…} expanded in the arguments that may name granted folders, and
  // the folder it runs in (the host's own when the entry names none: relative paths resolve there).
  const resolved = {
    ...config,
    command: found.command,
    args: [...launch.args],
    cwd: launch.cwd ?? process.cwd(),
  };
  const launcher = launcherName(config);
  const policy = policyFor(resolved, services, identity, name, launcher);
  await mkdir(policy.stateFolder, { recursive: true, mode: 0o700 });
  await mkdir(policy.privateTmp, { recursive: true, mode: 0o700 });
  for (const cache of launcherCaches(launcher, home))
    await mkdir(cache, { recursive: true }).catch(() => undefined);
  const network = await startServerNetwork({
    server: name,
    appDataDir: services.appDataDir,
    ...policy.hosts,
    services: services.network,
    onBlocked,
  });
  const proxy = { folder: network.folder, socketPath: network.proxy.socketPath };
  return {
    launch: sandboxedLaunch(found, policy, availability, proxy, services.nodePreload ?? nodeProxyPreload()),
    home,
    policy,
    network,
    sandbox: { state: 'on', policy: summarize(policy, home) },
  };
}
