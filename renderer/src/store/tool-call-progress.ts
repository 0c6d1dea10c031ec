import type { ToolCallProgress } from '../../../shared/model/server.js';
import type { AppData } from './app-state.js';
import { patchToolCall, toolCallOf } from './reducers.js';

/** A fresh id for one tool call: what progress events and Cancel refer to. */
export function newCallId(): string {
  return crypto.randomUUID();
}

/**
 * A progress event from the host: shown on the tool's running call if it is
 * still that call (a late event of an earlier call is dropped). Progress only
 * moves forward, as the spec requires of servers.
 */
export function applyToolCallProgress(
  state: Pick<AppData, 'toolCalls'>,
  event: ToolCallProgress,
): Partial<Pick<AppData, 'toolCalls'>> {
  const call = toolCallOf(state, event.server, event.tool);
  if (!call.running || call.callId !== event.callId) return {};
  if (call.progress && event.progress < call.progress.progress) return {};
  return patchToolCall(state, event.server, event.tool, {
    progress: {
      progress: event.progress,
      ...(event.total !== undefined ? { total: event.total } : {}),
      ...(event.message !== undefined ? { message: event.message } : {}),
    },
  });
}

/** 0–1 when the total is known, else undefined (an indeterminate bar). */
export function progressFraction(progress: {
  progress: number;
  total?: number | undefined;
}): number | undefined {
  if (progress.total === undefined || progress.total <= 0) return undefined;
  return Math.min(Math.max(progress.progress / progress.total, 0), 1);
}
