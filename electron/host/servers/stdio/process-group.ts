import type { ChildProcess } from 'node:child_process';
import { spawnSync } from 'node:child_process';

/**
 * Every stdio server runs in a process group of its own (POSIX) so that the
 * whole tree it starts (npx → sh → node, uvx → python …) can be signalled at
 * once. This module knows how to signal a tree and keeps a registry of live
 * trees so that none outlives the host, even on an abrupt exit.
 */

const live = new Set<ChildProcess>();
let exitHookInstalled = false;

export function trackProcessTree(child: ChildProcess): void {
  live.add(child);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // Last resort when the host exits without disposing its servers.
    process.on('exit', () => {
      for (const proc of live) signalTree(proc, 'SIGKILL');
    });
  }
}

export function untrackProcessTree(child: ChildProcess): void {
  live.delete(child);
}

/** Sends a signal to the process and, on POSIX, to every process in its group. */
export function signalTree(child: ChildProcess, signal: NodeJS.Signals): void {
  const pid = child.pid;
  if (pid === undefined) return;
  if (process.platform === 'win32') {
    if (signal === 'SIGKILL') {
      spawnSync('taskkill', ['/pid', String(pid), '/T', '/F'], { windowsHide: true, stdio: 'ignore' });
    } else {
      child.kill(signal);
    }
    return;
  }
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone. Fall back to the leader alone.
    try {
      child.kill(signal);
    } catch {
      // Already exited.
    }
  }
}

/** Whether any process of the tree is still running. */
export function treeAlive(child: ChildProcess): boolean {
  const pid = child.pid;
  if (pid === undefined) return false;
  if (process.platform === 'win32') return child.exitCode === null && child.signalCode === null;
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}
