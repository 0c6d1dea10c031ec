import type { StdioLaunch } from '../stdio-transport.js';
import type { SandboxPolicy } from './sandbox-policy.js';
import { dirname } from 'node:path';
import { proxiedCommand, proxyEnvironment } from './network/proxy-launch.js';
import { withNodePreload } from './network/node-preload.js';

/** The proxy of the server about to start: its host-only folder and the socket in it. */
export interface ProxyMount {
  folder: string;
  socketPath: string;
}

/**
 * The bubblewrap arguments that confine one server (Linux). The whole file
 * system is mounted read-only; /tmp is the server's private folder; granted
 * folders are mounted writable; the person's secrets are masked (folders by
 * an empty one nobody may open, files by an empty file) and the app's data
 * folder by an empty one holding only the server's own state folder. The
 * process keeps no capabilities (even when the host runs as root), gets its
 * own PID namespace (it dies with its launcher, children included) and an
 * empty network namespace (loopback only: the host's loopback ports are out
 * of reach too). Its one way out is the folder of its own network proxy,
 * mounted read-only last (inside the hidden data folder, where no other
 * server's proxy is visible).
 */
export function bwrapArguments(
  policy: SandboxPolicy,
  cwd?: string,
  proxy?: ProxyMount,
  nodePreload?: string,
): string[] {
  const args = ['--die-with-parent', '--new-session', '--unshare-pid', '--unshare-ipc', '--cap-drop', 'ALL'];
  args.push('--unshare-net');
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
  if (proxy !== undefined) args.push('--ro-bind', proxy.folder, proxy.folder);
  // The app's own preload for Node servers: readable wherever the app is (a checkout under /tmp too).
  if (nodePreload !== undefined) args.push('--ro-bind-try', dirname(nodePreload), dirname(nodePreload));
  return args;
}

/**
 * The launch run inside the sandbox: bubblewrap starting the server's own
 * command, behind the socat that carries its network to its proxy.
 */
export function sandboxedLaunch(
  launch: StdioLaunch,
  policy: SandboxPolicy,
  tools: { bwrap: string; socat: string },
  proxy: ProxyMount,
  nodePreload?: string,
): StdioLaunch {
  const nodeOptions = launch.env.NODE_OPTIONS;
  return {
    ...launch,
    command: tools.bwrap,
    args: [
      ...bwrapArguments(policy, launch.cwd, proxy, nodePreload),
      '--',
      ...proxiedCommand(tools.socat, proxy.socketPath, launch.command, launch.args),
    ],
    env: {
      // .NET single-file servers unpack themselves into a writable folder (the home is read-only).
      DOTNET_BUNDLE_EXTRACT_BASE_DIR: '/tmp',
      ...launch.env,
      ...proxyEnvironment(),
      // Node's fetch ignores the proxy variables before Node 24: the preload routes it through the proxy.
      ...(nodePreload !== undefined ? { NODE_OPTIONS: withNodePreload(nodeOptions, nodePreload) } : {}),
      TMPDIR: '/tmp',
      MCP_HOST_STATE_DIR: policy.stateFolder,
    },
  };
}
