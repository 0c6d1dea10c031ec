import { ProtocolError, specTypeSchemas } from '@modelcontextprotocol/client';
import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { isModernConnection } from '../../client-features/client-feature.js';
import { TASKS_EXTENSION_ID } from '../../client-features/tasks/tasks-feature.js';
import { HostError, describeError, oneLine } from '../../errors.js';
import type { PollWait, TaskRegistry } from './task-registry.js';

/**
 * Where the host's client puts the task handle a 2026-07-28 server answered
 * a tools/call with (`resultType: "task"`), in the `_meta` of an otherwise
 * empty result: the SDK (2.4) has no runtime for the Tasks extension and
 * would refuse that result type (servers/server-client.ts).
 */
export const TASK_HANDLE_META_KEY = 'mcp-host/task-handle';

/** What following an extension task needs from the host's client (servers/server-client.ts). */
export interface TaskExtensionClient {
  /** Sends tasks/get, tasks/update or tasks/cancel on the 2026-07-28 wire (with the request envelope). */
  extensionRequest(
    method: 'tasks/get' | 'tasks/update' | 'tasks/cancel',
    params: Record<string, unknown>,
    timeoutMs: number,
  ): Promise<Record<string, unknown>>;
  /** Answers one of a task's input requests through the handler a direct request would reach (consent). */
  answerInputRequest(key: string, entry: unknown, signal: AbortSignal): Promise<Record<string, unknown>>;
}

function isTaskExtensionClient(client: Client): client is Client & TaskExtensionClient {
  const probe = client as Partial<TaskExtensionClient>;
  return typeof probe.extensionRequest === 'function' && typeof probe.answerInputRequest === 'function';
}

/** The connection speaks the Tasks extension: 2026-07-28 or later, and the server declared it. */
export function speaksTaskExtension(client: Client): client is Client & TaskExtensionClient {
  if (!isModernConnection(client) || !isTaskExtensionClient(client)) return false;
  const extensions: unknown = client.getServerCapabilities()?.extensions;
  return typeof extensions === 'object' && extensions !== null && TASKS_EXTENSION_ID in extensions;
}

/** A task as the extension carries it (tasks/get, a handle, a notification). */
const DetailedTaskSchema = z.looseObject({
  taskId: z.string().min(1).max(500),
  status: z.enum(['working', 'input_required', 'completed', 'failed', 'cancelled']),
  statusMessage: z.string().optional(),
  ttlMs: z.number().nullable().optional(),
  pollIntervalMs: z.number().optional(),
  inputRequests: z.record(z.string(), z.unknown()).optional(),
  result: z.record(z.string(), z.unknown()).optional(),
  error: z.looseObject({ code: z.number().optional(), message: z.string().optional() }).optional(),
});
export type DetailedTask = z.infer<typeof DetailedTaskSchema>;

export function parseTaskHandle(value: unknown, server: string): DetailedTask {
  const parsed = DetailedTaskSchema.safeParse(value);
  if (!parsed.success) {
    throw new HostError('invalid_params', `Server "${server}" answered with an invalid task`);
  }
  return parsed.data;
}

export interface ExtensionFollowOptions {
  signal?: AbortSignal | undefined;
  maxResultBytes: number;
  requestTimeoutMs: number;
  /** When to poll a task last polled at `polledAt` next (task-call.ts, nextPoll). */
  nextPoll: (server: string, taskId: string, polledAt: number) => PollWait;
  /** Whether the task is past its ttl (and the grace). */
  pastTtl: (server: string, taskId: string) => boolean;
}

/**
 * Follows a task of the 2026-07-28 Tasks extension to its end: polls
 * tasks/get (a `notifications/tasks` wakes the wait), answers each new input
 * request once through the usual dialogs and sends the answers with
 * tasks/update, and takes the result (or error) inlined in the task. Every
 * failure is one line, as for a 2025 task.
 */
export async function followExtensionTask(
  client: Client & TaskExtensionClient,
  registry: TaskRegistry,
  server: string,
  taskId: string,
  options: ExtensionFollowOptions,
): Promise<CallToolResult> {
  const label = `Task "${oneLine(taskId, 80)}" of server "${server}"`;
  const answered = new Set<string>();
  // The task was just created (or resumed): that counts as a poll for timing, not for notifiedEnd.
  let lastPoll = Date.now();
  let polledAt = 0;
  for (;;) {
    const task = registry.get(server, taskId);
    if (!task) throw new HostError('not_found', `${label} is not known to the host`);
    const notifiedEnd =
      (task.status === 'completed' || task.status === 'failed') && task.updatedAt > polledAt;
    if (options.signal?.aborted === true) {
      await cancelExtensionTask(client, registry, server, taskId, options.requestTimeoutMs);
      throw new HostError('cancelled', `${label} was cancelled`);
    }
    if (options.pastTtl(server, taskId)) {
      await cancelExtensionTask(client, registry, server, taskId, options.requestTimeoutMs).catch(
        () => undefined,
      );
      const line = `${label} did not finish within its ttl (${String(Math.round((task.ttlMs ?? 0) / 1000))} s)`;
      registry.settle(server, taskId, 'failed', line);
      throw new HostError('timeout', line);
    }
    if (task.status === 'cancelled') throw new HostError('cancelled', `${label} was cancelled`);
    if (task.status === 'lost') throw new HostError('not_found', task.statusMessage ?? `${label} was lost`);
    // A notification since the last poll said the task ended: its result (or error) is
    // fetched with tasks/get at once (once: a server that contradicts it is polled as usual).
    const wait = notifiedEnd ? { ms: 0 } : options.nextPoll(server, taskId, lastPoll);
    if (wait.ms > 0) {
      await registry.changed(server, taskId, wait, options.signal);
      continue;
    }
    if (aborted(options.signal)) continue;
    const got = await poll(client, registry, server, taskId, label, options.requestTimeoutMs);
    lastPoll = Date.now();
    polledAt = lastPoll;
    switch (got.status) {
      case 'completed':
        return takeResult(registry, server, taskId, label, got, options.maxResultBytes);
      case 'failed': {
        const reason = got.error?.message ?? got.statusMessage ?? 'no reason given';
        const line = `${label} failed: ${oneLine(reason, 300)}`;
        registry.settle(server, taskId, 'failed', line);
        throw new HostError('internal', line);
      }
      case 'cancelled':
        registry.settle(server, taskId, 'cancelled', 'Cancelled');
        throw new HostError('cancelled', `${label} was cancelled`);
      case 'input_required':
        try {
          await answerInputs(client, taskId, got, answered, options);
        } catch (error) {
          if (error instanceof HostError && error.code === 'cancelled') throw error;
          await cancelExtensionTask(client, registry, server, taskId, options.requestTimeoutMs).catch(
            () => undefined,
          );
          const line = `${label}: answering its input request failed: ${oneLine(describeError(error), 300)}`;
          registry.settle(server, taskId, 'failed', line);
          throw new HostError('internal', line);
        }
        break;
      case 'working':
        break;
    }
  }
}

/** tasks/cancel on the extension's wire, then the task is marked cancelled. */
export async function cancelExtensionTask(
  client: Client & TaskExtensionClient,
  registry: TaskRegistry,
  server: string,
  taskId: string,
  timeoutMs: number,
): Promise<void> {
  try {
    await client.extensionRequest('tasks/cancel', { taskId }, timeoutMs);
  } finally {
    registry.settle(server, taskId, 'cancelled', 'Cancelled');
  }
}

async function poll(
  client: Client & TaskExtensionClient,
  registry: TaskRegistry,
  server: string,
  taskId: string,
  label: string,
  timeoutMs: number,
): Promise<DetailedTask> {
  let raw: Record<string, unknown>;
  try {
    raw = await client.extensionRequest('tasks/get', { taskId }, timeoutMs);
  } catch (error) {
    if (error instanceof ProtocolError && error.code === -32602) {
      const line = `${label} is no longer known to the server (it may have restarted or dropped it)`;
      registry.settle(server, taskId, 'lost', line);
      throw new HostError('not_found', line);
    }
    throw error;
  }
  const got = parseTaskHandle(raw, server);
  if (got.taskId !== taskId) {
    throw new HostError('invalid_params', `${label}: tasks/get answered for another task`);
  }
  registry.update(server, taskId, {
    // A final status is recorded with its line when the task is settled below.
    ...(got.status === 'working' || got.status === 'input_required' ? { status: got.status } : {}),
    ...(got.statusMessage !== undefined ? { statusMessage: oneLine(got.statusMessage, 500) } : {}),
    ...(got.pollIntervalMs !== undefined ? { pollIntervalMs: got.pollIntervalMs } : {}),
    ...(typeof got.ttlMs === 'number' ? { ttlMs: got.ttlMs } : {}),
  });
  return got;
}

/** Each input request is answered once (a key seen again on a later poll is skipped), then sent with tasks/update. */
async function answerInputs(
  client: Client & TaskExtensionClient,
  taskId: string,
  task: DetailedTask,
  answered: Set<string>,
  options: ExtensionFollowOptions,
): Promise<void> {
  const inputResponses: Record<string, unknown> = {};
  const signal = options.signal ?? new AbortController().signal;
  for (const [key, entry] of Object.entries(task.inputRequests ?? {})) {
    if (answered.has(key)) continue;
    answered.add(key);
    inputResponses[key] = await client.answerInputRequest(key, entry, signal);
  }
  if (Object.keys(inputResponses).length === 0) return;
  await client.extensionRequest('tasks/update', { taskId, inputResponses }, options.requestTimeoutMs);
}

function takeResult(
  registry: TaskRegistry,
  server: string,
  taskId: string,
  label: string,
  task: DetailedTask,
  max: number,
): CallToolResult {
  const size = Buffer.byteLength(JSON.stringify(task.result ?? {}));
  if (size > max) {
    const line = `${label} returned a result of ${megabytes(size)}, over the host's limit of ${megabytes(max)}`;
    registry.settle(server, taskId, 'failed', line);
    throw new HostError('invalid_params', line);
  }
  const outcome = specTypeSchemas.CallToolResult['~standard'].validate(task.result);
  if (outcome.issues) {
    const line = `${label} completed with an invalid result`;
    registry.settle(server, taskId, 'failed', line);
    throw new HostError('invalid_params', line);
  }
  const result = outcome.value;
  registry.settle(
    server,
    taskId,
    'completed',
    result.isError === true ? 'Completed with an error result' : undefined,
  );
  return result;
}

function aborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
