import type { StdioLaunch } from '../stdio-transport.js';
import type { SandboxPolicy } from './sandbox-policy.js';

/**
 * The bubblewrap arguments that confine one server (Linux). The whole file
 * system is mounted read-only; /tmp is the server's private folder; granted
 * folders are mounted writable; the person's secrets are masked (folders by
 * an empty one nobody may open, files by an empty file) and the app's data
 * folder by an empty one holding only the server's own state folder. The
 * process keeps no capabilities (even when the host runs as root), gets its
 * own PID namespace (it dies with its launcher, children included) and,
 * unless the network is open, an empty network namespace (loopback only,
 * nothing listening: the host's loopback ports are out of reach too).
 */
export function bwrapArguments(policy: SandboxPolicy, cwd?: string): string[] {
  const args = ['--die-with-parent', '--new-session', '--unshare-pid', '--unshare-ipc', '--cap-drop', 'ALL'];
  if (policy.network.mode === 'none') args.push('--unshare-net');
  args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc');
  args.push('--bind', policy.privateTmp, '/tmp');
  // What the entry runs from under the host's /tmp stays readable (the private /tmp hides the rest);
  // mounted before the masks below, so a secret folder inside it stays masked.
  for (const path of policy.tmpDirs) args.push('--ro-bind-try', path, path);
  if (cwd !== undefined && cwd.startsWith('/tmp/')) args.push('--ro-bind-try', cwd, cwd);
  for (const path of policy.write) args.push('--bind-try', path, path);
  for (const path of policy.denyDirs) args.push('--perms', '0000', '--tmpfs', path);
  for (const path of policy.denyFiles) args.push('--ro-bind-try', '/dev/null', path);
  for (const path of policy.hideDirs) args.push('--tmpfs', path);
  for (const path of policy.exposeDirs) args.push('--ro-bind-try', path, path);
  for (const path of policy.allowRead) args.push('--ro-bind-try', path, path);
  for (const path of policy.allowWrite) args.push('--bind-try', path, path);
  args.push('--bind', policy.stateFolder, policy.stateFolder);
  return args;
}

/** The launch run inside the sandbox: bubblewrap starting the server's own command. */
export function sandboxedLaunch(launch: StdioLaunch, policy: SandboxPolicy, bwrap: string): StdioLaunch {
  return {
    ...launch,
    command: bwrap,
    args: [...bwrapArguments(policy, launch.cwd), '--', launch.command, ...launch.args],
    env: {
      // .NET single-file servers unpack themselves into a writable folder (the home is read-only).
      DOTNET_BUNDLE_EXTRACT_BASE_DIR: '/tmp',
      ...launch.env,
      TMPDIR: '/tmp',
      MCP_HOST_STATE_DIR: policy.stateFolder,
    },
  };
}
