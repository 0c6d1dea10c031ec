import { constants, getPriority, setPriority } from 'node:os';
import type { ServerPriority } from '../../../../shared/model/config.js';

/**
 * The CPU priority a local server runs at. By default every local server runs
 * below normal (nice 10 on Linux and macOS, "below normal" on Windows): when
 * the machine is busy, the app and its window get the CPU before the
 * servers' work does, so a server that computes hard, floods notifications
 * or spins in a loop cannot make the chat sluggish. When the CPU is free the
 * priority changes nothing. An entry may ask for `normal`.
 *
 * Why it matters even for a light server: a server writing a burst of lines
 * wakes the host on its own core (a pipe write is a "sync" wakeup), where the
 * host then waits for the server's time slice to end while the other core
 * may be idle (seen with `perf sched`). Below normal, the server weighs a
 * tenth of the host in the scheduler's sharing of that core. What it changed
 * in `npm run bench -- tasks` is in docs/tasks.md#measured.
 */
export const LOWER_PRIORITY = constants.priority.PRIORITY_BELOW_NORMAL;

/**
 * Lowers a just-spawned process to LOWER_PRIORITY, never raising it (a host
 * that itself runs niced leaves its servers at least as low). Called right
 * after the spawn (before the child can have started anything: bubblewrap's
 * sandboxed server is checked in process-priority.test.ts), so what the
 * process starts afterwards inherits it. Returns whether it now runs at
 * LOWER_PRIORITY or lower; false when that could not be read or set (the
 * process is already gone).
 */
export function lowerProcessPriority(pid: number): boolean {
  try {
    if (getPriority(pid) < LOWER_PRIORITY) setPriority(pid, LOWER_PRIORITY);
    return true;
  } catch {
    return false;
  }
}

/** An entry's priority, the default applied. */
export const priorityOf = (config: { priority?: ServerPriority | undefined }): ServerPriority =>
  config.priority ?? 'lower';
