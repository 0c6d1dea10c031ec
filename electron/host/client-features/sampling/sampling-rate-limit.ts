/**
 * Per-server limit on sampling requests: a token bucket per server name
 * holding `perMinute` tokens, refilled continuously. A request that finds
 * the bucket empty is refused at once with a clear error; the person is
 * never asked about it.
 */
export class SamplingRateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    readonly perMinute: number,
    private readonly now: () => number = () => Date.now(),
  ) {
    if (!(perMinute > 0)) throw new RangeError('perMinute must be positive');
  }

  /** Takes a token for `server`; returns 0 when allowed, else the seconds until the next token. */
  take(server: string): number {
    const now = this.now();
    const bucket = this.buckets.get(server) ?? { tokens: this.perMinute, at: now };
    const refilled = Math.min(this.perMinute, bucket.tokens + ((now - bucket.at) * this.perMinute) / 60_000);
    if (refilled >= 1) {
      this.buckets.set(server, { tokens: refilled - 1, at: now });
      return 0;
    }
    this.buckets.set(server, { tokens: refilled, at: now });
    return Math.max(1, Math.ceil(((1 - refilled) * 60_000) / this.perMinute / 1000));
  }

  /** Forgets a server (removed from the configuration). */
  forget(server: string): void {
    this.buckets.delete(server);
  }
}
