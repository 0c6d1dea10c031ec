/** When and whether a crashed server is started again. */
export interface RestartPolicyOptions {
  /** First delay; doubles with each crash in the window. Default 1 s. */
  baseDelayMs?: number;
  /** Longest delay. Default 30 s. */
  maxDelayMs?: number;
  /** Crashes within `windowMs` after which restarting stops. Default 5. */
  maxCrashes?: number;
  /** Default 5 min. */
  windowMs?: number;
  now?: () => number;
}

export type RestartDecision =
  | { action: 'restart'; delayMs: number; crashCount: number }
  | { action: 'give-up'; crashCount: number; windowMs: number };

/**
 * Exponential backoff with a cap, and a give-up rule: a server that crashed
 * `maxCrashes` times within `windowMs` stays stopped until a person restarts
 * it. Crashes older than the window are forgotten, so a server that crashes
 * once a day is always restarted.
 */
export class RestartPolicy {
  private crashes: number[] = [];
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly maxCrashes: number;
  private readonly windowMs: number;
  private readonly now: () => number;

  constructor(options: RestartPolicyOptions = {}) {
    this.baseDelayMs = options.baseDelayMs ?? 1000;
    this.maxDelayMs = options.maxDelayMs ?? 30_000;
    this.maxCrashes = options.maxCrashes ?? 5;
    this.windowMs = options.windowMs ?? 5 * 60_000;
    this.now = options.now ?? Date.now;
  }

  /** Records a crash and says what to do about it. */
  recordCrash(): RestartDecision {
    const now = this.now();
    this.crashes = [...this.crashes.filter((t) => now - t < this.windowMs), now];
    const crashCount = this.crashes.length;
    if (crashCount >= this.maxCrashes) return { action: 'give-up', crashCount, windowMs: this.windowMs };
    const delayMs = Math.min(this.baseDelayMs * 2 ** (crashCount - 1), this.maxDelayMs);
    return { action: 'restart', delayMs, crashCount };
  }

  /** Crashes currently inside the window. */
  get crashCount(): number {
    const now = this.now();
    return this.crashes.filter((t) => now - t < this.windowMs).length;
  }

  /** A person started or restarted the server: the count starts over. */
  reset(): void {
    this.crashes = [];
  }
}
