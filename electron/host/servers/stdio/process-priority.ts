import { constants, getPriority, setPriority } from 'node:os';
import type { ServerPriority } from '../../../../shared/model/config.js';

/**
 * The CPU priority a local server runs at. By default every local server is
 * started one step below normal (nice 10 on Linux and macOS, "below normal"
 * on Windows): when the machine is busy, the app and its window get the CPU
 * before the servers' work does, so a server that computes hard, floods
 * notifications or spins in a loop cannot make the chat sluggish. When the
 * CPU is free the priority changes nothing. An entry may ask for `normal`.
 *
 * Measured in `npm run bench -- tasks` (docs/tasks.md#measured): with the
 * 50 reporting tasks of issue 25 on two cores, the UI's round-trip p99 went
 * from 1.6–2.2× idle to 1.0–1.7×.
 */
export const LOWER_PRIORITY = constants.priority.PRIORITY_BELOW_NORMAL;

/**
 * Lowers a just-spawned process to LOWER_PRIORITY, never raising it (a host
 * that itself runs niced leaves its servers at least as low). Called right
 * after the spawn, so what the process starts afterwards inherits it. Returns
 * the priority it runs at, or undefined when it could not be read or set
 * (the process is already gone).
 */
export function lowerProcessPriority(pid: number): number | undefined {
  try {
    const current = getPriority(pid);
    if (current >= LOWER_PRIORITY) return current;
    setPriority(pid, LOWER_PRIORITY);
    return LOWER_PRIORITY;
  } catch {
    return undefined;
  }
}

/** An entry's priority, the default applied. */
export const priorityOf = (config: { priority?: ServerPriority | undefined }): ServerPriority =>
  config.priority ?? 'lower';
