/**
 * When a follower of a task (task-call.ts, task-extension.ts) polls it next,
 * and when it gives up on it.
 */
import type { TaskInfo } from '../../../../shared/model/tasks.js';
import type { PollWait } from './task-registry.js';

/** Poll interval bounds: a server's suggestion is kept within them. */
const MIN_POLL_MS = 100;
const MAX_POLL_MS = 10_000;
/** The poll interval when the server suggests none. */
export const DEFAULT_POLL_MS = 1000;
/** How long after its ttl the host still waits for a task before giving up. */
const TTL_GRACE_MS = 2000;
/** After a status notification, the next poll waits this many poll intervals (see nextPoll). */
const NOTIFIED_POLL_SLACK = 1.5;

/** When the host gives up on a task (epoch ms): its ttl from the start, and the grace; undefined without a ttl. */
export function ttlEnd(task: TaskInfo): number | undefined {
  return task.ttlMs !== undefined ? task.startedAt + task.ttlMs + TTL_GRACE_MS : undefined;
}

export function pastTtl(task: TaskInfo): boolean {
  const end = ttlEnd(task);
  return end !== undefined && Date.now() > end;
}

/**
 * When to poll a task last polled at `polledAt` next: in `ms` (0 or less:
 * now), at the server's poll interval kept within bounds. A status
 * notification is as fresh as a poll, and while they keep coming polls are
 * only the safety net for one that never arrives: the next poll waits 1.5
 * intervals after the latest notification (`quiet`: the registry moves the
 * end of the wait with each one). A server that notifies at its own poll
 * interval would otherwise race, and double, every poll. Never past the
 * ttl's end, where the follower's check must run.
 */
export function nextPoll(task: TaskInfo, polledAt: number): PollWait {
  const interval = Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, task.pollIntervalMs ?? DEFAULT_POLL_MS));
  const quietMs = interval * NOTIFIED_POLL_SLACK;
  const next = task.updatedAt > polledAt ? task.updatedAt + quietMs : polledAt + interval;
  const latest = (ttlEnd(task) ?? Infinity) + 1;
  return { ms: Math.min(next, latest) - Date.now(), quiet: { ms: quietMs, latest } };
}
