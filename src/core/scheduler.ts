// Jobs ordered by emulated time. Everything that happens "later" — a recording that starts a few
// seconds after it is asked for, an upload that finishes, a webhook retry — is a job here, so
// one clock drives it all: `advance` in tests, a real timer in a running server.
//
// Jobs are data ({key, at, kind, payload}) with handlers registered by kind, so pending work can
// be exported with the state and restored. A key names a job's purpose; scheduling the same key
// again replaces the earlier job, and `cancel(key)` drops it.
import type { Clock } from './clock.js';

export interface Job {
  key: string;
  at: number;
  kind: string;
  payload: Record<string, unknown>;
  /** Insertion order: jobs due at the same time run in the order they were scheduled. */
  seq: number;
}

export type JobHandler = (payload: Record<string, unknown>, job: Job) => void;

export class Scheduler {
  private heap: Job[] = [];
  private byKey = new Map<string, Job>();
  private handlers = new Map<string, JobHandler>();
  private seq = 0;
  private changeListeners: Array<() => void> = [];

  constructor(
    private readonly clock: Clock,
    private readonly onJobError: (err: unknown, job: Job) => void = () => {},
  ) {
    this.reset();
  }

  reset(): void {
    this.heap = [];
    this.byKey = new Map();
    this.seq = 0;
    this.changed();
  }

  handle(kind: string, handler: JobHandler): void {
    this.handlers.set(kind, handler);
  }

  hasHandler(kind: string): boolean {
    return this.handlers.has(kind);
  }

  onChange(listener: () => void): void {
    this.changeListeners.push(listener);
  }

  schedule(key: string, at: number, kind: string, payload: Record<string, unknown> = {}): void {
    const existing = this.byKey.get(key);
    if (existing) this.remove(existing);
    const job: Job = { key, at, kind, payload, seq: this.seq++ };
    this.byKey.set(key, job);
    this.push(job);
    this.changed();
  }

  cancel(key: string): boolean {
    const job = this.byKey.get(key);
    if (!job) return false;
    this.remove(job);
    this.changed();
    return true;
  }

  /** Drops every pending job the predicate picks (an organization's jobs on its reset). */
  cancelWhere(predicate: (job: Job) => boolean): number {
    const doomed = this.heap.filter(predicate);
    for (const job of doomed) this.remove(job);
    if (doomed.length > 0) this.changed();
    return doomed.length;
  }

  has(key: string): boolean {
    return this.byKey.has(key);
  }

  get(key: string): Job | undefined {
    return this.byKey.get(key);
  }

  nextAt(): number | undefined {
    return this.heap[0]?.at;
  }

  /** Pending jobs in the order they will run. */
  list(): Job[] {
    return [...this.heap].sort(compare).map((j) => ({ ...j, payload: { ...j.payload } }));
  }

  /** Replaces all pending jobs (state import). */
  restore(jobs: Job[]): void {
    this.heap = [];
    this.byKey = new Map();
    this.seq = 0;
    for (const j of [...jobs].sort(compare)) {
      const job = { ...j, seq: this.seq++ };
      this.byKey.set(job.key, job);
      this.push(job);
    }
    this.changed();
  }

  /** Runs every job due at or before `now`, in time order, including jobs they schedule. */
  runDue(now: number): number {
    let ran = 0;
    for (let job = this.heap[0]; job && job.at <= now; job = this.heap[0]) {
      this.pop();
      this.byKey.delete(job.key);
      this.run(job);
      ran += 1;
    }
    if (ran > 0) this.changed();
    return ran;
  }

  /**
   * Moves the clock forward to `target`, stopping at each job's time to run it, so a job sees
   * `clock.now()` equal to its own due time. Returns the number of jobs run.
   */
  advanceTo(target: number): number {
    let ran = 0;
    for (let job = this.heap[0]; job && job.at <= target; job = this.heap[0]) {
      this.pop();
      this.byKey.delete(job.key);
      if (job.at > this.clock.now()) this.clock.set(job.at);
      this.run(job);
      ran += 1;
    }
    if (target > this.clock.now()) this.clock.set(target);
    this.changed();
    return ran;
  }

  private run(job: Job): void {
    const handler = this.handlers.get(job.kind);
    if (!handler) {
      this.onJobError(new Error(`no handler for job kind ${job.kind}`), job);
      return;
    }
    try {
      handler(job.payload, job);
    } catch (err) {
      this.onJobError(err, job);
    }
  }

  private changed(): void {
    for (const l of this.changeListeners) l();
  }

  // --- binary heap -------------------------------------------------------------------------

  private push(job: Job): void {
    const h = this.heap;
    h.push(job);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (compare(h[i]!, h[parent]!) >= 0) break;
      [h[i], h[parent]] = [h[parent]!, h[i]!];
      i = parent;
    }
  }

  private pop(): Job | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (h.length > 0 && last) {
      h[0] = last;
      this.siftDown(0);
    }
    return top;
  }

  private siftDown(start: number): void {
    const h = this.heap;
    let i = start;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && compare(h[l]!, h[m]!) < 0) m = l;
      if (r < h.length && compare(h[r]!, h[m]!) < 0) m = r;
      if (m === i) return;
      [h[i], h[m]] = [h[m]!, h[i]!];
      i = m;
    }
  }

  private remove(job: Job): void {
    const i = this.heap.indexOf(job);
    this.byKey.delete(job.key);
    if (i < 0) return;
    const last = this.heap.pop()!;
    if (i === this.heap.length) return;
    this.heap[i] = last;
    // restore heap order in both directions
    this.siftDown(i);
    let k = i;
    while (k > 0) {
      const parent = (k - 1) >> 1;
      if (compare(this.heap[k]!, this.heap[parent]!) >= 0) break;
      [this.heap[k], this.heap[parent]] = [this.heap[parent]!, this.heap[k]!];
      k = parent;
    }
  }
}

function compare(a: Job, b: Job): number {
  return a.at - b.at || a.seq - b.seq;
}

/** Fires due jobs on real time (server mode only; tests use `advanceTo`). */
export class RealTimeDriver {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly clock: Clock,
  ) {
    scheduler.onChange(() => this.arm());
  }

  start(): void {
    this.stopped = false;
    this.arm();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(): void {
    if (this.stopped || this.clock.mode !== 'real') return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const next = this.scheduler.nextAt();
    if (next === undefined) return;
    const delay = Math.min(this.clock.realDelayUntil(next), 2 ** 31 - 1);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.scheduler.runDue(this.clock.now());
      this.arm();
    }, delay);
    this.timer.unref();
  }
}
