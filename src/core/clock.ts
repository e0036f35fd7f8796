// The one place that reads the wall clock. Everything else asks an injected Clock.
//
// Times are epoch milliseconds (numbers) inside the emulator; they become ISO strings only at
// the edges (mappers), so comparing and scheduling stay cheap.

export type ClockMode = 'real' | 'manual';

export interface Clock {
  readonly mode: ClockMode;
  /** Emulated "now", epoch ms. */
  now(): number;
  /** Moves emulated time to `ms` (callers enforce forward-only). */
  set(ms: number): void;
  /** Real milliseconds until emulated time reaches `at` (for the real-time driver). */
  realDelayUntil(at: number): number;
  reset(): void;
}

/**
 * Wall-clock time, optionally sped up by `timeScale` (60 → one real second is one emulated
 * minute) and shifted forward by `set` (so `advance` works in real mode too).
 */
export class SystemClock implements Clock {
  readonly mode = 'real' as const;
  private anchorReal = 0;
  private anchorEmulated = 0;

  constructor(
    private readonly timeScale = 1,
    private readonly startAt?: number,
    private readonly readReal: () => number = Date.now,
  ) {
    if (!(timeScale > 0)) throw new Error('timeScale must be > 0');
    this.reset();
  }

  reset(): void {
    this.anchorReal = this.readReal();
    this.anchorEmulated = this.startAt ?? this.anchorReal;
  }

  now(): number {
    return Math.floor(this.anchorEmulated + (this.readReal() - this.anchorReal) * this.timeScale);
  }

  set(ms: number): void {
    this.anchorReal = this.readReal();
    this.anchorEmulated = ms;
  }

  realDelayUntil(at: number): number {
    return Math.max(0, Math.ceil((at - this.now()) / this.timeScale));
  }
}

/** Time that moves only when told to. The default in tests. */
export class ManualClock implements Clock {
  readonly mode = 'manual' as const;
  private current = 0;

  constructor(private readonly startAt: number) {
    this.reset();
  }

  reset(): void {
    this.current = this.startAt;
  }

  now(): number {
    return this.current;
  }

  set(ms: number): void {
    this.current = ms;
  }

  realDelayUntil(_at: number): number {
    return Number.POSITIVE_INFINITY; // nothing fires by itself
  }
}

/** The real time, for measuring durations of I/O (webhook attempts, request logs). */
export function realNow(): number {
  return Date.now();
}

/** Real milliseconds from an arbitrary origin that never go back (the media plane's pace: frames, ticks, jitter). */
export function realMonotonicNow(): number {
  return performance.now();
}

/**
 * The real time to the whole second: where a manual clock starts when no start is given. Whole,
 * so that a token's `iat` is never ahead of a verifier's wall clock.
 */
export function realNowWholeSecond(): number {
  return Math.floor(Date.now() / 1000) * 1000;
}

/** Real waiting, for injected latency (fault rules); tests pass their own. */
export function realSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

let lastIsoMs = Number.NaN;
let lastIso = '';

export function toIso(ms: number): string {
  // A manual clock stands still between advances, so the same time is written out many times
  // over (every timestamp of an answer, a payload, the live feed): the last one is kept.
  // Stryker disable next-line ConditionalExpression: the cache of the last ISO text only saves work: the same time gives the same text.
  if (ms !== lastIsoMs) {
    lastIso = new Date(ms).toISOString(); // throws for NaN or an out-of-range time, before anything is kept
    lastIsoMs = ms;
  }
  return lastIso;
}

/** The clock as the control API, the health check and the live feed show it. */
export function clockView(clock: Clock): { now: string; mode: Clock['mode'] } {
  return { now: toIso(clock.now()), mode: clock.mode };
}

/** toIso, with null (or absent) for a time that has not happened. */
export function isoOrNull(ms: number | null | undefined): string | null {
  return ms === null || ms === undefined ? null : toIso(ms);
}
