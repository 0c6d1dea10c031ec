import { ProtocolError, specTypeSchemas } from '@modelcontextprotocol/client';
import type { CallToolResult, Client, StandardSchemaV1Sync } from '@modelcontextprotocol/client';
import type { ToolCallResult, ToolInfo } from '../../../../shared/model/server.js';
import { toToolCallResult } from '../tool-result.js';
import { z } from 'zod';
import type { TaskInfo } from '../../../../shared/model/tasks.js';
import { HostError, describeError, oneLine } from '../../errors.js';
import type { PollWait, TaskRegistry } from './task-registry.js';
import { DEFAULT_POLL_MS, nextPoll, pastTtl, ttlEnd } from './task-timing.js';
import type { RequestPolicy } from '../lifecycle/request-policy.js';
import {
  TASK_HANDLE_META_KEY,
  cancelExtensionTask,
  followExtensionTask,
  parseTaskHandle,
  speaksTaskExtension,
} from './task-extension.js';
import type { TaskExtensionClient } from './task-extension.js';

/** The ttl the host asks for when it creates a task (the server may grant another). */
export const DEFAULT_TASK_TTL_MS = 30 * 60_000;
/** The largest task result the host accepts (serialized JSON). */
export const DEFAULT_MAX_TASK_RESULT_BYTES = 8 * 1024 * 1024;
/** One tasks/get or tasks/cancel may take this long. */
const REQUEST_TIMEOUT_MS = 30_000;

export interface TaskLimits {
  ttlMs?: number | undefined;
  maxResultBytes?: number | undefined;
}

export interface TaskCallRequest {
  server: string;
  tool: string;
  args: Record<string, unknown>;
  conversationId?: string | undefined;
  toolCallId?: string | undefined;
  /** Aborting cancels the task on the server (tasks/cancel). */
  signal?: AbortSignal | undefined;
  limits?: TaskLimits | undefined;
  /**
   * The server's request policy: on a 2026-07-28 connection the server may
   * answer the call itself (no task), so the call is given the time of a plain one.
   */
  policy?: RequestPolicy | undefined;
  /** The server answered with a task (recorded in the registry): a caller may stop waiting here. */
  onTask?: ((task: TaskInfo) => void) | undefined;
}

/**
 * Whether a call to `tool` goes as a task: the tool supports tasks
 * (`execution.taskSupport` optional or required) and the server declared
 * task-augmented tool calls (2025-11-25 `tasks.requests.tools.call`).
 */
export function runsAsTask(client: Client, tool: ToolInfo): boolean {
  // 2026-07-28: no per-tool declaration; the server decides per call whether to answer with a task.
  if (speaksTaskExtension(client)) return true;
  const support = tool.execution?.taskSupport;
  if (support !== 'optional' && support !== 'required') return false;
  const tasks: unknown = (client.getServerCapabilities() as Record<string, unknown> | undefined)?.tasks;
  return (
    isRecord(tasks) &&
    isRecord(tasks.requests) &&
    isRecord(tasks.requests.tools) &&
    isRecord(tasks.requests.tools.call)
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** The answer to a task-augmented tools/call: a task, or (a server may decline) the result itself. */
const CallOrTaskSchema = z.looseObject({});

/**
 * Calls a tool as a task (2025-11-25 `tools/call` with `task` metadata) and
 * follows it to its end: the task is recorded in the registry, polled at
 * the server's interval (a status notification wakes the poll early), and
 * its result fetched with `tasks/result`; an `input_required` task is
 * answered through that same request (the server's elicitation or sampling
 * arrives on the client's handlers: the usual dialogs and consent).
 */
export async function callToolAsTask(
  client: Client,
  registry: TaskRegistry,
  request: TaskCallRequest,
): Promise<CallToolResult> {
  if (speaksTaskExtension(client)) return callToolViaExtension(client, registry, request);
  const ttl = request.limits?.ttlMs ?? DEFAULT_TASK_TTL_MS;
  const answer = await client.request(
    { method: 'tools/call', params: { name: request.tool, arguments: request.args, task: { ttl } } },
    CallOrTaskSchema,
    { ...(request.signal ? { signal: request.signal } : {}), timeout: REQUEST_TIMEOUT_MS },
  );
  if (!('task' in answer)) return parseResult(answer, request);
  const created = validate(specTypeSchemas.CreateTaskResult, answer);
  if (!created) {
    throw new HostError(
      'invalid_params',
      `Server "${request.server}" answered the task call with an invalid task`,
    );
  }
  const { task } = created;
  recordStarted(registry, request, { ...task, ttlMs: task.ttl, pollIntervalMs: task.pollInterval });
  return followTask(client, registry, request.server, task.taskId, request);
}

/** A task a call became (either era): recorded in the registry, and the caller told (a chat turn). */
function recordStarted(
  registry: TaskRegistry,
  request: TaskCallRequest,
  task: Pick<TaskInfo, 'taskId' | 'status'> & {
    statusMessage?: string | undefined;
    ttlMs?: number | null | undefined;
    pollIntervalMs?: number | undefined;
  },
): void {
  const { statusMessage, ttlMs, pollIntervalMs } = task;
  const now = Date.now();
  const recorded = registry.put({
    server: request.server,
    taskId: task.taskId,
    tool: request.tool,
    ...(request.conversationId !== undefined ? { conversationId: request.conversationId } : {}),
    ...(request.toolCallId !== undefined ? { toolCallId: request.toolCallId } : {}),
    status: task.status,
    ...(statusMessage !== undefined ? { statusMessage: oneLine(statusMessage, 500) } : {}),
    startedAt: now,
    updatedAt: now,
    ...(typeof ttlMs === 'number' ? { ttlMs } : {}),
    ...(pollIntervalMs !== undefined ? { pollIntervalMs } : {}),
  });
  request.onTask?.(recorded);
}

/**
 * A tools/call on a 2026-07-28 connection that speaks the Tasks extension:
 * the request carries no task metadata (the client declared the extension
 * in its request capabilities); the server answers with the result, or with
 * a task handle that is recorded and followed.
 */
async function callToolViaExtension(
  client: Client & TaskExtensionClient,
  registry: TaskRegistry,
  request: TaskCallRequest,
): Promise<CallToolResult> {
  const answer = await client.request(
    { method: 'tools/call', params: { name: request.tool, arguments: request.args } },
    CallOrTaskSchema,
    {
      ...(request.signal ? { signal: request.signal } : {}),
      timeout: request.policy?.timeoutMs ?? REQUEST_TIMEOUT_MS,
      ...(request.policy ? { maxTotalTimeout: request.policy.maxTotalTimeoutMs } : {}),
      resetTimeoutOnProgress: true,
    },
  );
  const meta: unknown = answer._meta;
  const handle: unknown = isRecord(meta) ? meta[TASK_HANDLE_META_KEY] : undefined;
  if (handle === undefined) return parseResult(answer, request);
  const task = parseTaskHandle(handle, request.server);
  const status = task.status === 'input_required' ? 'input_required' : 'working';
  recordStarted(registry, request, { ...task, status });
  return followExtensionTask(
    client,
    registry,
    request.server,
    task.taskId,
    extensionOptions(registry, request),
  );
}

function extensionOptions(
  registry: TaskRegistry,
  options: { signal?: AbortSignal | undefined; limits?: TaskLimits | undefined },
): Parameters<typeof followExtensionTask>[4] {
  const waitOf = (server: string, taskId: string, polledAt: number): PollWait => {
    const task = registry.get(server, taskId);
    return task ? nextPoll(task, polledAt) : { ms: DEFAULT_POLL_MS };
  };
  const pastTtlOf = (server: string, taskId: string): boolean => {
    const task = registry.get(server, taskId);
    return task !== undefined && pastTtl(task);
  };
  return {
    signal: options.signal,
    maxResultBytes: options.limits?.maxResultBytes ?? DEFAULT_MAX_TASK_RESULT_BYTES,
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
    nextPoll: waitOf,
    pastTtl: pastTtlOf,
  };
}

/** callToolAsTask, its result as the host shows a tool call's result (with its duration). */
export async function callToolTimed(
  client: Client,
  registry: TaskRegistry,
  request: TaskCallRequest,
): Promise<ToolCallResult> {
  const started = performance.now();
  const result = await callToolAsTask(client, registry, request);
  return toToolCallResult(result, Math.round(performance.now() - started));
}

/**
 * Follows a known task to its end (also used to resume a task after a
 * restart): returns its result, or throws one clear line (failed,
 * cancelled, lost, past its ttl, result too large).
 */
export async function followTask(
  client: Client,
  registry: TaskRegistry,
  server: string,
  taskId: string,
  options: { signal?: AbortSignal | undefined; limits?: TaskLimits | undefined } = {},
): Promise<CallToolResult> {
  if (speaksTaskExtension(client)) {
    return followExtensionTask(client, registry, server, taskId, extensionOptions(registry, options));
  }
  const label = `Task "${oneLine(taskId, 80)}" of server "${server}"`;
  // The task was just created (or resumed): that counts as a poll.
  let polledAt = Date.now();
  for (;;) {
    const task = registry.get(server, taskId);
    if (!task) throw new HostError('not_found', `${label} is not known to the host`);
    if (options.signal?.aborted === true) {
      await cancelTask(client, registry, server, taskId);
      throw new HostError('cancelled', `${label} was cancelled`);
    }
    if (pastTtl(task)) {
      await cancelTask(client, registry, server, taskId).catch(() => undefined);
      const line = `${label} did not finish within its ttl (${Math.round((task.ttlMs ?? 0) / 1000)} s)`;
      registry.settle(server, taskId, 'failed', line);
      throw new HostError('timeout', line);
    }
    switch (task.status) {
      case 'completed':
      case 'input_required':
        return fetchResult(client, registry, task, label, options);
      case 'failed':
        throw new HostError('internal', `${label} failed: ${task.statusMessage ?? 'no reason given'}`);
      case 'cancelled':
        throw new HostError('cancelled', `${label} was cancelled`);
      case 'lost':
        throw new HostError('not_found', task.statusMessage ?? `${label} is no longer known to the server`);
      case 'working':
        break;
    }
    // A new status notified wakes the wait and is looked at above; it does not cause a poll.
    const wait = nextPoll(task, polledAt);
    if (wait.ms > 0) {
      await registry.changed(server, taskId, wait, options.signal);
      continue;
    }
    if (isAborted(options.signal)) continue;
    await poll(client, registry, task, label);
    polledAt = Date.now();
  }
}

/** tasks/cancel, then the task is marked cancelled (a server that already finished it may refuse: still cancelled here). */
export async function cancelTask(
  client: Client,
  registry: TaskRegistry,
  server: string,
  taskId: string,
): Promise<void> {
  if (speaksTaskExtension(client)) {
    await cancelExtensionTask(client, registry, server, taskId, REQUEST_TIMEOUT_MS);
    return;
  }
  try {
    await client.request({ method: 'tasks/cancel', params: { taskId } }, specTypeSchemas.CancelTaskResult, {
      timeout: REQUEST_TIMEOUT_MS,
    });
  } finally {
    registry.settle(server, taskId, 'cancelled', 'Cancelled');
  }
}

async function poll(client: Client, registry: TaskRegistry, task: TaskInfo, label: string): Promise<void> {
  try {
    const got = await client.request(
      { method: 'tasks/get', params: { taskId: task.taskId } },
      specTypeSchemas.GetTaskResult,
      { timeout: REQUEST_TIMEOUT_MS },
    );
    registry.update(task.server, task.taskId, {
      status: got.status,
      ...(got.statusMessage !== undefined ? { statusMessage: oneLine(got.statusMessage, 500) } : {}),
      ...(got.pollInterval !== undefined ? { pollIntervalMs: got.pollInterval } : {}),
      ...(typeof got.ttl === 'number' ? { ttlMs: got.ttl } : {}),
    });
  } catch (error) {
    if (error instanceof ProtocolError && error.code === -32602) {
      const line = `${label} is no longer known to the server (it may have restarted or dropped it)`;
      registry.settle(task.server, task.taskId, 'lost', line);
      throw new HostError('not_found', line);
    }
    throw error;
  }
}

async function fetchResult(
  client: Client,
  registry: TaskRegistry,
  task: TaskInfo,
  label: string,
  options: { signal?: AbortSignal | undefined; limits?: TaskLimits | undefined },
): Promise<CallToolResult> {
  const end = ttlEnd(task);
  const remaining = end !== undefined ? end - Date.now() : undefined;
  const onAbort = (): void => {
    void cancelTask(client, registry, task.server, task.taskId).catch(() => undefined);
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });
  let raw: Record<string, unknown>;
  try {
    // Blocks until the task ends; an input_required task's questions arrive meanwhile.
    raw = await client.request(
      { method: 'tasks/result', params: { taskId: task.taskId } },
      CallOrTaskSchema,
      {
        ...(options.signal ? { signal: options.signal } : {}),
        timeout: Math.max(1000, remaining ?? DEFAULT_TASK_TTL_MS),
      },
    );
  } catch (error) {
    if (options.signal?.aborted === true) throw new HostError('cancelled', `${label} was cancelled`);
    if (error instanceof ProtocolError && error.code === -32602) {
      const line = `${label} is no longer known to the server (it may have restarted or dropped it)`;
      registry.settle(task.server, task.taskId, 'lost', line);
      throw new HostError('not_found', line);
    }
    const line = `${label}: fetching its result failed: ${describeError(error)}`;
    registry.settle(task.server, task.taskId, 'failed', oneLine(line, 500));
    throw new HostError('internal', line);
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
  const max = options.limits?.maxResultBytes ?? DEFAULT_MAX_TASK_RESULT_BYTES;
  const size = Buffer.byteLength(JSON.stringify(raw));
  if (size > max) {
    const line = `${label} returned a result of ${megabytes(size)}, over the host's limit of ${megabytes(max)}`;
    registry.settle(task.server, task.taskId, 'failed', line);
    throw new HostError('invalid_params', line);
  }
  const result = parseResult(raw, { server: task.server, tool: task.tool });
  registry.settle(
    task.server,
    task.taskId,
    'completed',
    result.isError === true ? 'Completed with an error result' : undefined,
  );
  return result;
}

function parseResult(raw: Record<string, unknown>, where: { server: string; tool: string }): CallToolResult {
  const parsed = validate(specTypeSchemas.CallToolResult, raw);
  if (!parsed) {
    throw new HostError(
      'invalid_params',
      `Server "${where.server}" returned an invalid result for tool "${where.tool}"`,
    );
  }
  return parsed;
}

/** A spec schema's synchronous check: the value, or undefined when it does not match. */
function validate<T>(schema: StandardSchemaV1Sync<unknown, T>, value: unknown): T | undefined {
  const outcome = schema['~standard'].validate(value);
  return outcome.issues ? undefined : outcome.value;
}

function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
