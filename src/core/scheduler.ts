// Jobs ordered by emulated time. Everything that happens "later" — a recording that starts a few
// seconds after it is asked for, an upload that finishes, a webhook retry — is a job here, so
// one clock drives it all: `advance` in tests, a real timer in a running server.
//
// Jobs are data ({key, at, kind, payload}), so pending work can be exported with the state and
// restored. Each kind is declared once (`defineJob` in ./jobs.ts) by the module that owns it,
// and every call goes through that declaration: `schedule(KIND, payload, at)`,
// `cancel(KIND, keyParts)`, `handle(KIND, handler)`. A key names a job's purpose; scheduling
// under a key that is taken replaces the earlier job.
import type { Clock } from './clock.js';
import type { AnyJobKind, JobKind, JobPayload, JobValue } from './jobs.js';

export interface Job<P extends JobPayload = JobPayload> {
  key: string;
  at: number;
  kind: string;
  payload: P;
  /** Insertion order: jobs due at the same time run in the order they were scheduled. */
  seq: number;
}

/** A job as a state document holds it. */
export interface StoredJob {
  key: string;
  at: number;
  kind: string;
  payload: Record<string, JobValue>;
}

/** Why a stored job cannot be restored: `path` is where in the job (`kind`, `payload.orgId`, `key`). */
export interface JobProblem {
  path: string;
  message: string;
}

export type JobHandler<P extends JobPayload> = (payload: P, job: Job<P>) => void;

/** A pending job with the declaration of its kind. */
interface Entry extends Job {
  declaration: AnyJobKind;
}

interface Registered {
  declaration: AnyJobKind;
  handler: JobHandler<JobPayload> | undefined;
}

export class Scheduler {
  private heap: Entry[] = [];
  private byKey = new Map<string, Entry>();
  /** Declarations by kind, with their handler once one is registered (kept across resets). */
  private kinds = new Map<string, Registered>();
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

  /** Registers what runs when a job of this kind comes due. */
  handle<P extends K & JobPayload, K extends object>(kind: JobKind<P, K>, handler: JobHandler<P>): void {
    // Erased here, sound at run time: a job only ever holds a payload its kind's schema made.
    this.register(kind).handler = handler as unknown as JobHandler<JobPayload>;
  }

  onChange(listener: () => void): void {
    this.changeListeners.push(listener);
  }

  /** Schedules a job at `at`, replacing the job its key names, if any. */
  schedule<P extends K & JobPayload, K extends object>(kind: JobKind<P, K>, payload: P, at: number): void {
    const { declaration } = this.register(kind);
    // The schema's output, not the caller's object: the payload's fields are in one order
    // whichever way it was made, so exports compare byte for byte.
    const parsed = kind.payload.parse(payload);
    this.insert({ key: kind.key(parsed), at, kind: kind.kind, payload: parsed, seq: this.seq++, declaration });
    this.changed();
  }

  /** Drops the job of this kind that the key parts name. */
  cancel<P extends K & JobPayload, K extends object>(kind: JobKind<P, K>, parts: K): boolean {
    const job = this.find(kind, parts);
    if (!job) return false;
    this.remove(job);
    this.changed();
    return true;
  }

  /** Drops every pending job of one kind. */
  cancelKind(kind: AnyJobKind): number {
    return this.drop((job) => job.kind === kind.kind);
  }

  /** Drops every pending job that belongs to the organization (its reset). */
  cancelOrg(orgId: string): number {
    return this.drop((job) => job.declaration.orgId(job.payload as never) === orgId);
  }

  has<P extends K & JobPayload, K extends object>(kind: JobKind<P, K>, parts: K): boolean {
    return this.find(kind, parts) !== undefined;
  }

  get<P extends K & JobPayload, K extends object>(kind: JobKind<P, K>, parts: K): Job<P> | undefined {
    const job = this.find(kind, parts);
    return job && (view(job) as Job<P>);
  }

  nextAt(): number | undefined {
    return this.heap[0]?.at;
  }

  /** Pending jobs in the order they will run. */
  list(): Job[] {
    return [...this.heap].sort(compare).map(view);
  }

  /**
   * Checks a stored job (state import) against its kind's declaration: a kind with a handler,
   * a payload its schema accepts, and the key the declaration gives that payload. Null when
   * it can be restored.
   */
  validate(stored: StoredJob): JobProblem | null {
    const checked = this.check(stored);
    return 'problem' in checked ? checked.problem : null;
  }

  /** Replaces all pending jobs (state import; validate them first). */
  restore(jobs: readonly Job[]): void {
    const entries = [...jobs].sort(compare).map((stored) => {
      const checked = this.check(stored);
      if ('problem' in checked) throw new Error(`job ${stored.key}: ${checked.problem.path}: ${checked.problem.message}`);
      return { ...checked.job, at: stored.at };
    });
    this.heap = [];
    this.byKey = new Map();
    this.seq = 0;
    for (const entry of entries) this.insert({ ...entry, seq: this.seq++ });
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

  /** The kind's entry in the registry, made on first use; one declaration per kind. */
  private register(kind: AnyJobKind): Registered {
    let known = this.kinds.get(kind.kind);
    if (known && known.declaration !== kind) throw new Error(`job kind ${kind.kind} is declared twice`);
    if (!known) this.kinds.set(kind.kind, (known = { declaration: kind, handler: undefined }));
    return known;
  }

  private find(kind: AnyJobKind, parts: object): Entry | undefined {
    const job = this.byKey.get(kind.key(parts as never));
    return job?.kind === kind.kind ? job : undefined;
  }

  private check(stored: StoredJob): { job: Omit<Entry, 'at' | 'seq'> } | { problem: JobProblem } {
    const registered = this.kinds.get(stored.kind);
    if (!registered?.handler) return { problem: { path: 'kind', message: `unknown job kind ${stored.kind}` } };
    const { declaration } = registered;
    const result = declaration.payload.safeParse(stored.payload);
    if (!result.success) {
      const issue = result.error.issues[0]!;
      return { problem: { path: ['payload', ...issue.path.map(String)].join('.'), message: issue.message } };
    }
    const payload = result.data as JobPayload;
    const key = declaration.key(payload as never);
    if (stored.key !== key) return { problem: { path: 'key', message: `a ${stored.kind} job with this payload is named ${key}` } };
    return { job: { key, kind: stored.kind, payload, declaration } };
  }

  private insert(job: Entry): void {
    const existing = this.byKey.get(job.key);
    if (existing) this.remove(existing);
    this.byKey.set(job.key, job);
    this.push(job);
  }

  private drop(doomed: (job: Entry) => boolean): number {
    const jobs = this.heap.filter(doomed);
    for (const job of jobs) this.remove(job);
    if (jobs.length > 0) this.changed();
    return jobs.length;
  }

  private run(job: Entry): void {
    const handler = this.kinds.get(job.kind)?.handler;
    if (!handler) {
      this.onJobError(new Error(`no handler for job kind ${job.kind}`), view(job));
      return;
    }
    try {
      handler(job.payload, view(job));
    } catch (err) {
      this.onJobError(err, view(job));
    }
  }

  private changed(): void {
    for (const l of this.changeListeners) l();
  }

  // --- binary heap -------------------------------------------------------------------------

  private push(job: Entry): void {
    const h = this.heap;
    h.push(job);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      // Stryker disable next-line EqualityOperator: compare() never returns 0 for two different jobs (each has its own sequence number), so strict and non-strict comparisons agree.
      if (compare(h[i]!, h[parent]!) >= 0) break;
      [h[i], h[parent]] = [h[parent]!, h[i]!];
      i = parent;
    }
  }

  private pop(): Entry | undefined {
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
      // Stryker disable next-line EqualityOperator: compare() never returns 0 for two different jobs (each has its own sequence number), so strict and non-strict comparisons agree.
      if (l < h.length && compare(h[l]!, h[m]!) < 0) m = l;
      // Stryker disable next-line EqualityOperator: compare() never returns 0 for two different jobs (each has its own sequence number), so strict and non-strict comparisons agree.
      if (r < h.length && compare(h[r]!, h[m]!) < 0) m = r;
      if (m === i) return;
      [h[i], h[m]] = [h[m]!, h[i]!];
      i = m;
    }
  }

  private remove(job: Entry): void {
    const i = this.heap.indexOf(job);
    this.byKey.delete(job.key);
    // Stryker disable next-line ConditionalExpression: every job remove() is given is in the heap, so the index is never negative.
    if (i < 0) return;
    const last = this.heap.pop()!;
    if (i === this.heap.length) return;
    this.heap[i] = last;
    // restore heap order in both directions
    this.siftDown(i);
    let k = i;
    while (k > 0) {
      const parent = (k - 1) >> 1;
      // Stryker disable next-line EqualityOperator: compare() never returns 0 for two different jobs (each has its own sequence number), so strict and non-strict comparisons agree.
      if (compare(this.heap[k]!, this.heap[parent]!) >= 0) break;
      [this.heap[k], this.heap[parent]] = [this.heap[parent]!, this.heap[k]!];
      k = parent;
    }
  }
}

function compare(a: Job, b: Job): number {
  return a.at - b.at || a.seq - b.seq;
}

/** What callers see of a job: a copy, without the scheduler's bookkeeping. */
function view(job: Job): Job {
  return { key: job.key, at: job.at, kind: job.kind, payload: { ...job.payload }, seq: job.seq };
}

/** Fires due jobs on real time (server mode only; tests use `advanceTo`). */
export class RealTimeDriver {
  private timer: NodeJS.Timeout | undefined;
  // Stryker disable next-line BooleanLiteral: the one caller calls start() right after construction, and start() clears the flag first.
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
    // Stryker disable next-line ConditionalExpression: clearTimeout(undefined) does nothing, so the check only skips a no-op.
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(): void {
    if (this.stopped || this.clock.mode !== 'real') return;
    // Stryker disable next-line ConditionalExpression: clearTimeout(undefined) does nothing, so the check only skips a no-op.
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
