import { describe, expect, it } from 'vitest';
import { RestartPolicy } from '../../../../../../electron/host/servers/lifecycle/restart-policy.js';

describe('RestartPolicy', () => {
  it('doubles the delay from 1 s and gives up at the 5th crash within the window', () => {
    let now = 0;
    const policy = new RestartPolicy({ now: () => now });
    const decisions = [1, 2, 3, 4, 5].map(() => {
      now += 1000;
      return policy.recordCrash();
    });
    expect(decisions.slice(0, 4).map((d) => (d.action === 'restart' ? d.delayMs : -1))).toEqual([
      1000, 2000, 4000, 8000,
    ]);
    expect(decisions[4]).toMatchObject({ action: 'give-up', crashCount: 5 });
  });

  it('caps the delay', () => {
    let now = 0;
    const policy = new RestartPolicy({
      now: () => now,
      maxCrashes: 20,
      baseDelayMs: 1000,
      maxDelayMs: 30_000,
    });
    let last = policy.recordCrash();
    for (let i = 0; i < 10; i++) {
      now += 10;
      last = policy.recordCrash();
    }
    expect(last).toEqual({ action: 'restart', delayMs: 30_000, crashCount: 11 });
  });

  it('forgets crashes older than the window, and a manual reset clears the count', () => {
    let now = 0;
    const policy = new RestartPolicy({ now: () => now, windowMs: 60_000 });
    policy.recordCrash();
    policy.recordCrash();
    expect(policy.crashCount).toBe(2);
    now += 61_000;
    expect(policy.crashCount).toBe(0);
    expect(policy.recordCrash()).toEqual({ action: 'restart', delayMs: 1000, crashCount: 1 });
    policy.reset();
    expect(policy.crashCount).toBe(0);
  });
});
