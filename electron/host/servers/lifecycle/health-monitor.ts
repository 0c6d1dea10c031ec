import type { Client } from '@modelcontextprotocol/client';

/**
 * Pings an idle connection every `intervalMs`. A server that is busy
 * answering requests is evidently alive; one that has gone quiet is asked.
 * A ping that fails or is not answered within `timeoutMs` reports the
 * connection unhealthy, once.
 */
export class HealthMonitor {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly intervalMs: number,
    private readonly timeoutMs: number,
    private readonly isBusy: () => boolean,
    private readonly ping: (timeoutMs: number) => Promise<unknown>,
    private readonly onUnhealthy: (reason: string) => void,
  ) {}

  start(): void {
    if (this.intervalMs <= 0 || !Number.isFinite(this.intervalMs)) return;
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private get halted(): boolean {
    return this.stopped;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.check();
    }, this.intervalMs);
    // Health checks alone must not keep a CLI or test process alive.
    this.timer.unref();
  }

  private async check(): Promise<void> {
    if (this.stopped) return;
    if (this.isBusy()) {
      this.schedule();
      return;
    }
    try {
      await this.ping(this.timeoutMs);
    } catch {
      // stop() may have run while the ping was out (the server was stopped on purpose).
      if (this.halted) return;
      this.stop();
      this.onUnhealthy(`did not answer a ping within ${String(this.timeoutMs / 1000)} s`);
      return;
    }
    this.schedule();
  }
}

/** A cheap request that proves a server alive: ping, or on the 2026-07-28 wire (no ping) server/discover. */
export function pingOf(client: Client, timeout: number): Promise<unknown> {
  return client.getProtocolEra() === 'modern' ? client.discover({ timeout }) : client.ping({ timeout });
}
