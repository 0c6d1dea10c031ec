import { describe, expect, it } from 'vitest';
import type { AppData } from '../../../../../renderer/src/store/app-state.js';
import { patchToolCall, toolCallOf } from '../../../../../renderer/src/store/reducers.js';
import {
  applyToolCallProgress,
  newCallId,
  progressFraction,
} from '../../../../../renderer/src/store/tool-call-progress.js';

const running = (callId: string): Pick<AppData, 'toolCalls'> =>
  patchToolCall({ toolCalls: {} }, 'srv', 'long', { running: true, callId });

describe('tool call progress', () => {
  it('shows progress on the running call it belongs to, moving forward only', () => {
    let state = running('call-1');
    state = { ...state, ...applyToolCallProgress(state, event('call-1', 2, 'step 2')) };
    expect(toolCallOf(state, 'srv', 'long').progress).toEqual({ progress: 2, total: 4, message: 'step 2' });
    const stale = applyToolCallProgress(state, event('call-1', 1, 'late'));
    expect(stale).toEqual({});
  });

  it('drops progress of an earlier call or of a call that has ended', () => {
    const state = running('call-2');
    expect(applyToolCallProgress(state, event('call-1', 3))).toEqual({});
    const ended = patchToolCall(state, 'srv', 'long', { running: false, callId: undefined });
    expect(applyToolCallProgress(ended, event('call-2', 3))).toEqual({});
  });

  it('computes a bounded fraction only when the total is known', () => {
    expect(progressFraction({ progress: 1, total: 4 })).toBe(0.25);
    expect(progressFraction({ progress: 9, total: 4 })).toBe(1);
    expect(progressFraction({ progress: 5 })).toBeUndefined();
  });

  it('makes ids the host accepts, different each time', () => {
    const a = newCallId();
    expect(a).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    expect(newCallId()).not.toBe(a);
  });
});

function event(callId: string, progress: number, message?: string) {
  return { callId, server: 'srv', tool: 'long', progress, total: 4, ...(message ? { message } : {}) };
}
