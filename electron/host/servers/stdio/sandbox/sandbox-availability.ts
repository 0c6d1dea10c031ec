import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { delimiter, join } from 'node:path';

/** Whether servers can be sandboxed here, and if not, why and what to do. */
export type SandboxAvailability =
  { available: true; bwrap: string; socat: string } | { available: false; reason: string; fix: string };

export interface AvailabilityProbe {
  platform: NodeJS.Platform;
  /** The PATH to look for bubblewrap and socat in. */
  path: string;
  /** Also looked in, where a desktop app's PATH may lack them. Default /usr/bin, /usr/local/bin. */
  systemDirs?: readonly string[];
  /** Runs bubblewrap once; resolves with its stderr when it failed, undefined when it worked. */
  tryRun?: (bwrap: string) => Promise<string | undefined>;
}

const tryBwrap = (bwrap: string): Promise<string | undefined> =>
  new Promise((resolve) => {
    execFile(
      bwrap,
      [
        '--die-with-parent',
        '--unshare-pid',
        '--unshare-net',
        '--ro-bind',
        '/',
        '/',
        '--dev',
        '/dev',
        '--',
        'true',
      ],
      { timeout: 10_000 },
      (error, _stdout, stderr) => {
        resolve(error ? (stderr.trim() || error.message).split('\n')[0] : undefined);
      },
    );
  });

async function findOnPath(name: string, path: string): Promise<string | undefined> {
  for (const dir of path.split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    const ok = await access(candidate, constants.X_OK).then(
      () => true,
      () => false,
    );
    if (ok) return candidate;
  }
  return undefined;
}

/**
 * Looks for what the sandbox needs: Linux with bubblewrap on the PATH that
 * can create namespaces (checked by running it once), and socat (which
 * bridges the server's own network to the host's filtering proxy). Never throws.
 */
export async function detectSandbox(probe: AvailabilityProbe): Promise<SandboxAvailability> {
  if (probe.platform !== 'linux') {
    return {
      available: false,
      reason: `the sandbox is not supported on ${probe.platform} yet`,
      fix: 'none yet: run only servers you trust on this system',
    };
  }
  const dirs = [probe.path, ...(probe.systemDirs ?? ['/usr/bin', '/usr/local/bin'])];
  const bwrap = await findOnPath('bwrap', dirs.join(delimiter));
  if (bwrap === undefined) {
    return {
      available: false,
      reason: 'bubblewrap is not installed',
      fix: 'install bubblewrap (e.g. sudo apt install bubblewrap), then restart the server',
    };
  }
  const socat = await findOnPath('socat', dirs.join(delimiter));
  if (socat === undefined) {
    return {
      available: false,
      reason: 'socat is not installed (it carries the network of sandboxed servers)',
      fix: 'install socat (e.g. sudo apt install socat), then restart the server',
    };
  }
  const failure = await (probe.tryRun ?? tryBwrap)(bwrap);
  if (failure !== undefined) {
    const namespaces = /namespace|permission|not permitted|clone/i.test(failure);
    return {
      available: false,
      reason: namespaces
        ? `user namespaces are disabled (bubblewrap: ${failure.slice(0, 200)})`
        : `bubblewrap does not work here (${failure.slice(0, 200)})`,
      fix: namespaces
        ? 'allow unprivileged user namespaces: sudo sysctl -w kernel.unprivileged_userns_clone=1 (Ubuntu 24.04+: kernel.apparmor_restrict_unprivileged_userns=0)'
        : 'reinstall bubblewrap (e.g. sudo apt install --reinstall bubblewrap)',
    };
  }
  return { available: true, bwrap, socat };
}
