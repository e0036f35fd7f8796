// Fixed-window rate limiting on the emulator's clock (off unless --rate-limit is set), so a
// test can provoke 429 and watch it lift by advancing time.

export class RateLimiter {
  private windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly perMinute: number,
    private readonly windowMs = 60_000,
  ) {}

  get enabled(): boolean {
    return this.perMinute > 0;
  }

  reset(): void {
    this.windows.clear();
  }

  /** 0 when the request may go on; otherwise the seconds until the client's window resets. */
  take(client: string, now: number): number {
    // Stryker disable next-line ConditionalExpression: the one caller, the rateLimit middleware, never calls take() on a disabled limiter.
    if (!this.enabled) return 0;
    let w = this.windows.get(client);
    if (!w || now - w.start >= this.windowMs) {
      // Drop stale windows now and then, so the map stays as small as the set of active clients.
      // Stryker disable next-line ConditionalExpression,EqualityOperator: sweeping stale windows only saves memory: an expired window restarts on the next request anyway.
      if (this.windows.size > 10_000) for (const [k, v] of this.windows) if (now - v.start >= this.windowMs) this.windows.delete(k);
      w = { start: now, count: 0 };
      this.windows.set(client, w);
    }
    if (w.count >= this.perMinute) return Math.max(1, Math.ceil((w.start + this.windowMs - now) / 1000));
    w.count += 1;
    return 0;
  }
}
