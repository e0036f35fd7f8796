// The webhook outbox (STYLE habit 7). Every event × webhook becomes a delivery record with its
// attempts, its next attempt time and a status; an injected transport sends it.
//
// - The first attempt goes out at once, whatever the clock mode: it is started on the next
//   turn of the event loop, never awaited by the request that caused it.
// - A non-2xx answer, a connection error or no answer within `timeoutMs` fails an attempt. It
//   is retried up to 5 times, 1 s, 5 s, 30 s, 2 min and 10 min after each failure, as jobs on
//   the emulator's clock (a manual-clock test drives them with `advance`). Then: `failed`.
// - Every attempt of a delivery carries the same body bytes, signature and `dyte-uuid`.
// - `idle()` resolves once no attempt is in flight, so tests and the in-process API wait for
//   the network without sleeping.
// - The log is bounded: past `maxRecords`, delivered records go first (oldest first), then
//   failed ones; pending records are never dropped.
// - Shutdown (`interrupt()`): attempts in flight are cut off and recorded as failed attempts,
//   retried like any other failure, so a state file saved next resumes them after a restart.
import { realNow } from '../core/clock.js';
import type { Clock } from '../core/clock.js';
import { errors } from '../core/errors.js';
import type { IdGenerator } from '../core/ids.js';
import type { Scheduler } from '../core/scheduler.js';
import type { WebhookEventName } from '../domain/models.js';
import type { Logger } from '../logger.js';
import type { WebhookSigner } from './signer.js';
import type { WebhookTransport } from './transport.js';

/** Delays before retry 1..5, each counted from the failure before it (emulator clock, ms). */
export const RETRY_DELAYS_MS = [1_000, 5_000, 30_000, 120_000, 600_000] as const;
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 3_000;
export const DEFAULT_DELIVERY_LOG_SIZE = 10_000;
export const WEBHOOK_USER_AGENT = 'meetings-emulator-webhooks/0.1.0 (+local emulator)';
export const RETRY_JOB = 'webhook.retry';
export const INTERRUPTED_ERROR = 'Interrupted: the emulator shut down before the receiver answered';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'delivered', 'failed'];
/** initial: the first attempt; retry: an automatic retry; redeliver: asked for through the control API. */
export type AttemptTrigger = 'initial' | 'retry' | 'redeliver';

export interface DeliveryAttempt {
  /** Emulator time the attempt started. */
  at: number;
  statusCode: number | null;
  error: string | null;
  /** Real milliseconds the attempt took. */
  durationMs: number;
  trigger: AttemptTrigger;
}

export interface Delivery {
  /** Also the `dyte-uuid` header of every attempt. */
  id: string;
  orgId: string | null;
  webhookId: string;
  event: WebhookEventName;
  /** Where the latest attempt went (or the first will go). */
  url: string;
  /** The compact JSON body, fixed at creation: every attempt sends exactly these bytes. */
  body: string;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  /** When the next automatic attempt is (or was) due; null once delivered or failed. */
  nextAttemptAt: number | null;
  /** Automatic retries started so far (0..5). */
  retries: number;
  /** Why the delivery failed, once it did. */
  failureReason: string | null;
  createdAt: number;
}

export interface DeliveryFilter {
  orgId?: string;
  webhookId?: string;
  event?: WebhookEventName;
  status?: DeliveryStatus;
}

/** Where an attempt goes: the webhook's current URL, or why the delivery stops (webhook gone). */
export type DeliveryTarget = { url: string } | { stop: string };

export interface NewDelivery {
  orgId: string | null;
  webhookId: string;
  url: string;
  event: WebhookEventName;
  payload: unknown;
}

export interface OutboxOptions {
  clock: Clock;
  scheduler: Scheduler;
  ids: IdGenerator;
  signer: WebhookSigner;
  transport: WebhookTransport;
  logger?: Logger;
  timeoutMs?: number;
  maxRecords?: number;
  /** Called before every automatic attempt; default: the URL recorded on the delivery. */
  resolveTarget?: (delivery: Delivery) => DeliveryTarget;
  /** Called once per new delivery (links it to the request that caused it). */
  onCreated?: (delivery: Delivery) => void;
}

const retryKey = (id: string) => `webhook:${id}:retry`;

export class Outbox {
  private records = new Map<string, Delivery>();
  /** Finished records in the order they finished, oldest first: eviction candidates. */
  private delivered = new Set<string>();
  private failed = new Set<string>();
  private inFlight = new Set<string>();
  private running = new Set<Promise<void>>();
  private transport: WebhookTransport;
  /** Set by interrupt() (shutdown): a lifecycle flag, not state, so reset() keeps it. */
  private interrupted = false;
  readonly timeoutMs: number;
  readonly maxRecords: number;

  constructor(private readonly opts: OutboxOptions) {
    this.transport = opts.transport;
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
    this.maxRecords = opts.maxRecords ?? DEFAULT_DELIVERY_LOG_SIZE;
    opts.scheduler.handle(RETRY_JOB, (payload) => this.onRetryDue(String(payload.deliveryId)));
    this.reset();
  }

  /** Forgets every record. Attempts still in flight finish, but their results are dropped. */
  reset(): void {
    for (const id of this.records.keys()) this.opts.scheduler.cancel(retryKey(id));
    this.records = new Map();
    this.delivered = new Set();
    this.failed = new Set();
    this.inFlight = new Set();
  }

  /** Drops one organization's records and pending retries (organization reset). */
  resetOrg(orgId: string): void {
    for (const d of [...this.records.values()]) if (d.orgId === orgId) this.drop(d.id);
  }

  /** Swaps the transport (tests, in-process use). The current one is closed. */
  useTransport(transport: WebhookTransport): void {
    if (transport !== this.transport) this.transport.close();
    this.transport = transport;
  }

  close(): void {
    this.transport.close();
  }

  /**
   * Server shutdown: from now on no attempt starts (deliveries stay pending, their retry time
   * kept), and the attempts in flight are cut off. Each of those is recorded as a failed attempt
   * (INTERRUPTED_ERROR) and retried like any other failure (emulator decision: the receiver got
   * the request, so it counts as one of the attempts). Resolves once none is in flight.
   */
  async interrupt(): Promise<void> {
    this.interrupted = true;
    this.transport.close();
    await this.idle();
  }

  get size(): number {
    return this.records.size;
  }

  /** Records a delivery and starts its first attempt at once (not awaited). */
  enqueue(input: NewDelivery): Delivery {
    const now = this.opts.clock.now();
    const delivery: Delivery = {
      id: this.opts.ids.uuid(),
      orgId: input.orgId,
      webhookId: input.webhookId,
      event: input.event,
      url: input.url,
      body: JSON.stringify(input.payload),
      status: 'pending',
      attempts: [],
      nextAttemptAt: now,
      retries: 0,
      failureReason: null,
      createdAt: now,
    };
    this.records.set(delivery.id, delivery);
    this.opts.onCreated?.(delivery);
    void this.start(delivery, 'initial'); // fire-and-forget: start() catches its own errors and idle() awaits it
    this.trim();
    return delivery;
  }

  get(id: string): Delivery | undefined {
    return this.records.get(id);
  }

  isInFlight(id: string): boolean {
    return this.inFlight.has(id);
  }

  /** Newest first. */
  list(filter: DeliveryFilter = {}, limit = Number.POSITIVE_INFINITY): { items: Delivery[]; total: number } {
    const all = [...this.records.values()];
    const items: Delivery[] = [];
    let total = 0;
    for (let i = all.length - 1; i >= 0; i--) {
      const d = all[i]!;
      if (filter.orgId !== undefined && d.orgId !== filter.orgId) continue;
      if (filter.webhookId !== undefined && d.webhookId !== filter.webhookId) continue;
      if (filter.event !== undefined && d.event !== filter.event) continue;
      if (filter.status !== undefined && d.status !== filter.status) continue;
      total += 1;
      if (items.length < limit) items.push(d);
    }
    return { items, total };
  }

  /**
   * Sends a delivery again, now, and resolves once that attempt has finished. On a delivered or
   * failed delivery it is one extra attempt whose outcome becomes the status (no automatic
   * retries follow). On a pending delivery it is the next automatic retry, brought forward.
   * 404 for an unknown id, 409 while an attempt is under way.
   */
  async redeliver(id: string): Promise<Delivery> {
    const d = this.records.get(id);
    if (!d) throw errors.notFound('delivery', id);
    if (this.inFlight.has(id)) throw errors.deliveryInFlight(id);
    if (d.status === 'pending') {
      this.opts.scheduler.cancel(retryKey(id));
      if (d.attempts.length > 0) d.retries += 1;
    }
    await this.start(d, 'redeliver');
    return d;
  }

  /** Resolves once no attempt is in flight (including attempts started meanwhile). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /**
   * Deep copies of every record, oldest first (state export). An attempt in flight is exported
   * as not made yet: an import makes it again, with the same dyte-uuid, and does not count it
   * twice against the retries (a pending record has made `retries + 1` attempts, or none).
   */
  snapshot(): Delivery[] {
    return [...this.records.values()].map((d) => {
      const copy = structuredClone(d);
      if (copy.status === 'pending') copy.retries = Math.max(0, copy.attempts.length - 1);
      return copy;
    });
  }

  /**
   * Replaces the records (state import). A pending record gets its retry job back at its
   * `nextAttemptAt` unless the scheduler already holds it (restore the scheduler first).
   */
  restore(records: Delivery[]): void {
    this.reset();
    for (const r of records) {
      const d = structuredClone(r);
      this.records.set(d.id, d);
      if (d.status === 'delivered') this.delivered.add(d.id);
      else if (d.status === 'failed') this.failed.add(d.id);
      else if (!this.opts.scheduler.has(retryKey(d.id))) {
        // A first attempt that never finished is retried as attempt 1 again.
        this.opts.scheduler.schedule(retryKey(d.id), d.nextAttemptAt ?? this.opts.clock.now(), RETRY_JOB, { deliveryId: d.id, orgId: d.orgId });
      }
    }
  }

  // --- attempts ------------------------------------------------------------------------------

  private onRetryDue(id: string): void {
    const d = this.records.get(id);
    if (!d || d.status !== 'pending' || this.inFlight.has(id)) return;
    if (d.attempts.length > 0) d.retries += 1;
    void this.start(d, d.attempts.length === 0 ? 'initial' : 'retry');
  }

  /** Starts an attempt on the next turn of the event loop; the promise settles when it ends. */
  private start(d: Delivery, trigger: AttemptTrigger): Promise<void> {
    const at = this.opts.clock.now();
    this.inFlight.add(d.id);
    const run = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.attempt(d, trigger, at))
      .catch((err: unknown) => this.opts.logger?.error({ err, deliveryId: d.id }, 'webhook attempt crashed'))
      .finally(() => {
        if (this.records.get(d.id) === d) this.inFlight.delete(d.id);
        this.running.delete(run);
      });
    this.running.add(run);
    return run;
  }

  private target(d: Delivery, trigger: AttemptTrigger): DeliveryTarget {
    const resolved = this.opts.resolveTarget?.(d) ?? { url: d.url };
    // An explicit redelivery still goes out when the webhook was disabled or deleted since.
    if ('stop' in resolved && trigger === 'redeliver') return { url: d.url };
    return resolved;
  }

  private async attempt(d: Delivery, trigger: AttemptTrigger, at: number): Promise<void> {
    if (this.records.get(d.id) !== d) return;
    if (this.interrupted) {
      // Not sent: it stays pending, its retry not counted (see snapshot).
      if (d.status === 'pending') d.retries = Math.max(0, d.attempts.length - 1);
      return;
    }
    const target = this.target(d, trigger);
    if ('stop' in target) {
      this.finish(d, 'failed', target.stop);
      this.opts.logger?.info({ deliveryId: d.id, webhookId: d.webhookId, event: d.event, reason: target.stop }, 'webhook delivery stopped');
      return;
    }
    d.url = target.url;
    const body = Buffer.from(d.body, 'utf8');
    const headers = {
      'content-type': 'application/json',
      'user-agent': WEBHOOK_USER_AGENT,
      'dyte-signature': this.opts.signer.sign(d.body),
      'dyte-webhook-id': d.webhookId,
      'dyte-uuid': d.id,
    };
    const startedReal = realNow();
    const result = await this.transport.send({ url: target.url, headers, body, timeoutMs: this.timeoutMs });
    const durationMs = Math.max(0, realNow() - startedReal);
    // Reset (or the organization's reset) happened meanwhile: the record is gone, drop the result.
    if (this.records.get(d.id) !== d) return;
    const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    const cutOff = this.interrupted && result.statusCode === null;
    const error = ok ? null : cutOff ? INTERRUPTED_ERROR : (result.error ?? `Non-2xx answer: HTTP ${result.statusCode}`);
    d.attempts.push({ at, statusCode: result.statusCode, error, durationMs, trigger });
    this.opts.logger?.debug({ deliveryId: d.id, webhookId: d.webhookId, event: d.event, statusCode: result.statusCode, error, trigger }, 'webhook attempt');
    if (ok) {
      this.finish(d, 'delivered', null);
      return;
    }
    const automatic = trigger !== 'redeliver' || d.status === 'pending';
    if (!automatic) {
      this.finish(d, 'failed', error);
      return;
    }
    if (d.retries < RETRY_DELAYS_MS.length) {
      const next = this.opts.clock.now() + RETRY_DELAYS_MS[d.retries]!;
      d.nextAttemptAt = next;
      this.opts.scheduler.schedule(retryKey(d.id), next, RETRY_JOB, { deliveryId: d.id, orgId: d.orgId });
    } else {
      this.finish(d, 'failed', `No 2xx answer after ${1 + RETRY_DELAYS_MS.length} attempts (last: ${error})`);
      this.opts.logger?.warn({ deliveryId: d.id, webhookId: d.webhookId, event: d.event }, 'webhook delivery failed after its retries');
    }
  }

  private finish(d: Delivery, status: 'delivered' | 'failed', reason: string | null): void {
    this.opts.scheduler.cancel(retryKey(d.id));
    d.status = status;
    d.nextAttemptAt = null;
    d.failureReason = reason;
    this.delivered.delete(d.id);
    this.failed.delete(d.id);
    (status === 'delivered' ? this.delivered : this.failed).add(d.id);
    this.trim();
  }

  private drop(id: string): void {
    this.opts.scheduler.cancel(retryKey(id));
    this.records.delete(id);
    this.delivered.delete(id);
    this.failed.delete(id);
    this.inFlight.delete(id);
  }

  /** Keeps the log within maxRecords: oldest delivered first, then oldest failed; never pending. */
  private trim(): void {
    for (const pool of [this.delivered, this.failed]) {
      if (this.records.size <= this.maxRecords) return;
      // Deleting the current element while iterating a Set is safe in JS.
      for (const id of pool) {
        if (this.records.size <= this.maxRecords) return;
        if (this.inFlight.has(id)) continue;
        this.drop(id);
      }
    }
  }
}
