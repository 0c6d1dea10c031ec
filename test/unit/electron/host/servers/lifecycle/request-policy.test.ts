import { describe, expect, it } from 'vitest';
import {
  CancellableCalls,
  GuardedRequest,
  formatDuration,
  requestPolicyOf,
} from '../../../../../../electron/host/servers/lifecycle/request-policy.js';

describe('request policy', () => {
  it('defaults to 60 s of silence and 10 min in all; a total below the timeout is raised to it', () => {
    expect(requestPolicyOf({ command: 'x' })).toEqual({ timeoutMs: 60_000, maxTotalTimeoutMs: 600_000 });
    expect(requestPolicyOf({ command: 'x', timeout: 5000, maxTotalTimeout: 1000 })).toEqual({
      timeoutMs: 5000,
      maxTotalTimeoutMs: 5000,
    });
  });

  it('formats limits the way the errors say them', () => {
    expect([
      formatDuration(300),
      formatDuration(1500),
      formatDuration(60_000),
      formatDuration(600_000),
    ]).toEqual(['300 ms', '1.5 s', '1 min', '10 min']);
  });

  it('gives a call nobody can cancel no abort signal, and a cancellable one its own', () => {
    const plain = new GuardedRequest({ timeoutMs: 1000, maxTotalTimeoutMs: 2000 }, undefined);
    expect(plain.options).toMatchObject({
      timeout: 1000,
      maxTotalTimeout: 2000,
      resetTimeoutOnProgress: true,
    });
    expect(plain.options.signal).toBeUndefined();
    plain.dispose();

    const outer = new AbortController();
    const cancellable = new GuardedRequest(
      { timeoutMs: 1000, maxTotalTimeoutMs: 2000 },
      undefined,
      outer.signal,
    );
    outer.abort();
    expect(cancellable.options.signal?.aborted).toBe(true);
    expect(cancellable.stoppedBecause).toBe('cancelled');
    expect(cancellable.failure('s', 'tools/call t', true, false)?.code).toBe('cancelled');
    cancellable.dispose();
  });

  it('tracks running calls by id: one at a time per id, cancel once', () => {
    const calls = new CancellableCalls();
    const controller = calls.begin('call-0001');
    expect(() => calls.begin('call-0001')).toThrow(/already running/);
    expect(calls.cancel('call-0001')).toBe(true);
    expect(controller.signal.aborted).toBe(true);
    expect(calls.cancel('call-0001')).toBe(false);
    calls.begin('call-0001');
    calls.end('call-0001');
    expect(calls.size).toBe(0);
  });
});
