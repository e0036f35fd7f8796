// The webhook outbox: sending is never done inline, so no delivery is lost or blocks a
// request, and tests swap the transport for a recording one. Every event × webhook becomes a delivery record with its
// attempts, its next attempt time and a status; an injected transport sends it.
//
// - The first attempt goes out at once, whatever the clock mode: it is started on the next
//   turn of the event loop, never awaited by the request that caused it.
// - A non-2xx answer, a connection error or no answer within `timeoutMs` fails an attempt. It
//   is retried up to 5 times, 1 s, 5 s, 30 s, 2 min and 10 min after each failure, as jobs on
//   the emulator's clock (a manual-clock test drives them with `advance`). Then: `failed`.
//   How many retries a delivery has made is read off its attempts (`retriesOf`), never kept
//   apart from them, so the schedule, the give-up and the state export cannot disagree.
// - Every attempt of a delivery carries the same body bytes, signature and `dyte-uuid`.
// - The headers are those of the API the webhook was registered through (DELIVERY_HEADERS):
//   dyte-* for v2, rtk-* for RealtimeKit; the signature is the same either way.
// - Attempts leave in the order they started, so a receiver sees an event's deliveries in the
//   order the events happened (meeting.started before participantJoined), even though their
//   signatures are made in parallel and the one of a body signed before is ready at once.
// - `idle()` resolves once no attempt is in flight, so tests and the in-process API wait for
//   the network without sleeping.
// - The log is bounded: past `maxRecords`, delivered records go first (oldest first), then
//   failed ones; pending records are never dropped.
// - Shutdown (`interrupt()`): attempts in flight are cut off and recorded as failed attempts,
//   retried like any other failure, so a state file saved next resumes them after a restart.
//   An attempt that never went out (due after the shutdown began, or cut off before its
//   request was written) is not recorded, so it is not counted either.
import { z } from 'zod';
import { realNow } from '../core/clock.js';
import type { Clock } from '../core/clock.js';
import { errors } from '../core/errors.js';
import { VERSION } from '../core/package-info.js';
import type { IdGenerator } from '../core/ids.js';
import { defineJob, jobIdField } from '../core/jobs.js';
import type { Scheduler } from '../core/scheduler.js';
import type { WebhookApi, WebhookEventName } from '../domain/models.js';
import type { Logger } from '../logger.js';
import type { WebhookSigner } from './signer.js';
import type { WebhookTransport } from './transport.js';

/** Delays before retry 1..5, each counted from the failure before it (emulator clock, ms). */
export const RETRY_DELAYS_MS = [1_000, 5_000, 30_000, 120_000, 600_000] as const;
/** The attempts a delivery makes by itself: the first one and its retries. */
export const MAX_AUTOMATIC_ATTEMPTS = 1 + RETRY_DELAYS_MS.length;
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 3_000;
export const DEFAULT_DELIVERY_LOG_SIZE = 10_000;
export const WEBHOOK_USER_AGENT = `meetings-emulator-webhooks/${VERSION} (+local emulator)`;
export const INTERRUPTED_ERROR = 'Interrupted: the emulator shut down before the receiver answered';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'delivered', 'failed'];
type FinishedStatus = Exclude<DeliveryStatus, 'pending'>;
/** Which finished records leave a full log first. */
const EVICTION_ORDER: readonly FinishedStatus[] = ['delivered', 'failed'];
/** initial: the first attempt; retry: an automatic retry; redeliver: asked for through the control API. */
export type AttemptTrigger = 'initial' | 'retry' | 'redeliver';

/**
 * The names of the three headers an attempt carries, per API: the signature (base64 RSA-SHA256
 * over the body bytes), the id of the webhook, and the id of the delivery (the same on every
 * attempt, for receivers to drop duplicates).
 */
export const DELIVERY_HEADERS: Record<WebhookApi, { signature: string; webhookId: string; deliveryId: string }> = {
  v2: { signature: 'dyte-signature', webhookId: 'dyte-webhook-id', deliveryId: 'dyte-uuid' },
  realtimekit: { signature: 'rtk-signature', webhookId: 'rtk-webhook-id', deliveryId: 'rtk-uuid' },
};

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
  /** The API the webhook was registered through: which headers the attempts carry. */
  api: WebhookApi;
  event: WebhookEventName;
  /** Where the latest attempt went (or the first will go). */
  url: string;
  /** The compact JSON body, fixed at creation: every attempt sends exactly these bytes. */
  body: string;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  /** When the next automatic attempt is (or was) due; null once delivered or failed. */
  nextAttemptAt: number | null;
  /** Why the delivery failed, once it did. */
  failureReason: string | null;
  /** What the event was about that its payload cannot say (why a recording ERRORED); null when nothing. */
  note: string | null;
  createdAt: number;
}

/** A delivery as a state export holds it: with its retry count, read off its attempts. */
export interface SavedDelivery extends Delivery {
  retries: number;
}

/**
 * How many automatic retries a delivery has made (0..5). Its attempts begin with the automatic
 * ones: the first attempt, then one per retry (a redelivery of a pending delivery is its next
 * retry, brought forward), until the first 2xx or the sixth attempt. After N of them failed,
 * the next retry is due RETRY_DELAYS_MS[N-1] after the last failure. Only attempts made
 * count: one still in flight is not in the list yet, and one due after a shutdown began was
 * never made. What follows the automatic attempts are redeliveries of a finished delivery,
 * which are not retries.
 */
export function retriesOf(attempts: readonly DeliveryAttempt[]): number {
  let automatic = 0;
  for (const a of attempts) {
    automatic += 1;
    if (succeeded(a.statusCode) || automatic === MAX_AUTOMATIC_ATTEMPTS) break;
  }
  return Math.max(0, automatic - 1);
}

function succeeded(statusCode: number | null): boolean {
  return statusCode !== null && statusCode >= 200 && statusCode < 300;
}

/** A delivery's next automatic attempt. */
export const WEBHOOK_RETRY = defineJob({
  kind: 'webhook.retry',
  // orgId: null for the webhooks given on the command line, which belong to no organization.
  payload: z.object({ deliveryId: jobIdField, orgId: jobIdField.nullable() }).strict(),
  key: ({ deliveryId }: { deliveryId: string }) => `webhook:${deliveryId}:retry`,
  orgId: (p) => p.orgId,
});

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
  /** v2 unless told (the webhooks given on the command line are v2's). */
  api?: WebhookApi;
  url: string;
  event: WebhookEventName;
  payload: unknown;
  /** What the payload cannot say, for whoever reads the delivery log (why a recording ERRORED). */
  note?: string | null;
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
  /** Called when a delivery is made and whenever one of its attempts ends (the dashboard's live feed). */
  onChanged?: (delivery: Delivery) => void;
}

/** The headers of every attempt of a delivery: the outbox sends them, the control API shows them. */
export function deliveryHeaders(d: Pick<Delivery, 'id' | 'webhookId' | 'api'>, signature: string): Record<string, string> {
  const names = DELIVERY_HEADERS[d.api];
  return {
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    [names.signature]: signature,
    [names.webhookId]: d.webhookId,
    [names.deliveryId]: d.id,
  };
}

export class Outbox {
  private records = new Map<string, Delivery>();
  /** Finished records by status, each in the order they finished, oldest first: eviction candidates. */
  private finished = finishedPools();
  private inFlight = new Set<string>();
  private running = new Set<Promise<void>>();
  /** Settles when the latest started attempt has its signature: the next one waits for it. */
  private signedInTurn: Promise<unknown> = Promise.resolve();
  private transport: WebhookTransport;
  /** Set by interrupt() (shutdown): a lifecycle flag, not state, so reset() keeps it. */
  private interrupted = false;
  readonly timeoutMs: number;
  readonly maxRecords: number;

  constructor(private readonly opts: OutboxOptions) {
    this.transport = opts.transport;
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
    this.maxRecords = opts.maxRecords ?? DEFAULT_DELIVERY_LOG_SIZE;
    opts.scheduler.handle(WEBHOOK_RETRY, ({ deliveryId }) => this.onRetryDue(deliveryId));
    this.reset();
  }

  /** Forgets every record. Attempts still in flight finish, but their results are dropped. */
  reset(): void {
    for (const id of this.records.keys()) this.opts.scheduler.cancel(WEBHOOK_RETRY, { deliveryId: id });
    this.records = new Map();
    this.finished = finishedPools();
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
   * kept), and the attempts in flight are cut off. Each of those whose request had been sent is
   * recorded as a failed attempt (INTERRUPTED_ERROR) and retried like any other failure
   * (emulator decision: the receiver has the request, so it counts as one of the attempts); one
   * cut off before its request was written is not an attempt. Resolves once none is in flight.
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
      api: input.api ?? 'v2',
      event: input.event,
      url: input.url,
      body: JSON.stringify(input.payload),
      status: 'pending',
      attempts: [],
      nextAttemptAt: now,
      failureReason: null,
      note: input.note ?? null,
      createdAt: now,
    };
    this.records.set(delivery.id, delivery);
    this.opts.onCreated?.(delivery);
    this.opts.onChanged?.(delivery);
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
    // Stryker disable next-line ConditionalExpression: a delivered or failed delivery has no retry job left, so the cancel finds nothing.
    if (d.status === 'pending') this.opts.scheduler.cancel(WEBHOOK_RETRY, { deliveryId: id });
    await this.start(d, 'redeliver');
    return d;
  }

  /** Resolves once no attempt is in flight (including attempts started meanwhile). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /**
   * Deep copies of every record, oldest first, with their retry count (state export). An
   * attempt in flight is not among the attempts yet, so it is exported as not made: an import
   * makes it again, with the same dyte-uuid, and counts it once.
   */
  snapshot(): SavedDelivery[] {
    return [...this.records.values()].map((d) => ({ ...structuredClone(d), retries: retriesOf(d.attempts) }));
  }

  /**
   * Replaces the records (state import). A saved retry count is not read: it follows from the
   * attempts. A pending record gets its retry job back at its `nextAttemptAt` unless the
   * scheduler already holds it (restore the scheduler first).
   */
  restore(records: ReadonlyArray<Omit<Delivery, 'api' | 'note'> & { api?: WebhookApi; note?: string | null }>): void {
    this.reset();
    for (const r of records) {
      const { retries: _derived, ...saved } = structuredClone(r) as SavedDelivery;
      // A state saved before deliveries knew their API holds only v2 ones.
      const d: Delivery = { ...saved, api: saved.api ?? 'v2', note: saved.note ?? null };
      this.records.set(d.id, d);
      if (d.status !== 'pending') this.finished[d.status].add(d.id);
      else if (!this.opts.scheduler.has(WEBHOOK_RETRY, { deliveryId: d.id })) {
        // A first attempt that never finished is retried as attempt 1 again.
        this.opts.scheduler.schedule(WEBHOOK_RETRY, { deliveryId: d.id, orgId: d.orgId }, d.nextAttemptAt ?? this.opts.clock.now());
      }
    }
  }

  // --- attempts ------------------------------------------------------------------------------

  private onRetryDue(id: string): void {
    const d = this.records.get(id);
    if (!d || d.status !== 'pending' || this.inFlight.has(id)) return;
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
        if (this.records.get(d.id) === d) {
          this.inFlight.delete(d.id);
          this.opts.onChanged?.(d);
        }
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
    // Not sent and not recorded: the delivery stays as it was, to resume after a restart.
    if (this.interrupted) return;
    const target = this.target(d, trigger);
    if ('stop' in target) {
      this.finish(d, 'failed', target.stop);
      this.opts.logger?.info({ deliveryId: d.id, webhookId: d.webhookId, event: d.event, reason: target.stop }, 'webhook delivery stopped');
      return;
    }
    const signature = await this.inTurn(this.opts.signer.sign(d.body));
    // Reset, or shut down, while the signature was made: nothing was sent, nothing is recorded.
    if (this.records.get(d.id) !== d || this.interrupted) return;
    d.url = target.url;
    const body = Buffer.from(d.body, 'utf8');
    const headers = deliveryHeaders(d, signature);
    const startedReal = realNow();
    const result = await this.transport.send({ url: target.url, headers, body, timeoutMs: this.timeoutMs });
    const durationMs = Math.max(0, realNow() - startedReal);
    // Reset (or the organization's reset) happened meanwhile: the record is gone, drop the result.
    if (this.records.get(d.id) !== d) return;
    const ok = succeeded(result.statusCode);
    const cutOff = this.interrupted && result.statusCode === null;
    // Cut off before its request left the emulator: no receiver can have it, so it was not an
    // attempt. The delivery stays as it was, to resume after a restart.
    if (cutOff && result.sent === false) return;
    const error = ok ? null : cutOff ? INTERRUPTED_ERROR : (result.error ?? `Non-2xx answer: HTTP ${result.statusCode}`);
    d.attempts.push({ at, statusCode: result.statusCode, error, durationMs, trigger });
    this.opts.logger?.debug({ deliveryId: d.id, webhookId: d.webhookId, event: d.event, statusCode: result.statusCode, error, trigger }, 'webhook attempt');
    if (ok) {
      this.finish(d, 'delivered', null);
      return;
    }
    // Stryker disable next-line ConditionalExpression: an automatic attempt only ever starts on a pending delivery, so the status check decides nothing more.
    const automatic = trigger !== 'redeliver' || d.status === 'pending';
    if (!automatic) {
      this.finish(d, 'failed', error);
      return;
    }
    const retries = retriesOf(d.attempts);
    if (retries < RETRY_DELAYS_MS.length) {
      const next = this.opts.clock.now() + RETRY_DELAYS_MS[retries]!;
      d.nextAttemptAt = next;
      this.opts.scheduler.schedule(WEBHOOK_RETRY, { deliveryId: d.id, orgId: d.orgId }, next);
    } else {
      this.finish(d, 'failed', `No 2xx answer after ${MAX_AUTOMATIC_ATTEMPTS} attempts (last: ${error})`);
      this.opts.logger?.warn({ deliveryId: d.id, webhookId: d.webhookId, event: d.event }, 'webhook delivery failed after its retries');
    }
  }

  /** Resolves like `signing`, but never before the signing of an attempt that started earlier. */
  private inTurn(signing: Promise<string>): Promise<string> {
    const turn = this.signedInTurn.then(() => signing);
    this.signedInTurn = turn.catch(() => undefined);
    return turn;
  }

  private finish(d: Delivery, status: FinishedStatus, reason: string | null): void {
    this.opts.scheduler.cancel(WEBHOOK_RETRY, { deliveryId: d.id });
    d.status = status;
    d.nextAttemptAt = null;
    d.failureReason = reason;
    // Finishing again (a redelivery) moves it to the back of its pool.
    for (const pool of Object.values(this.finished)) pool.delete(d.id);
    this.finished[status].add(d.id);
    this.trim();
  }

  private drop(id: string): void {
    this.opts.scheduler.cancel(WEBHOOK_RETRY, { deliveryId: id });
    this.records.delete(id);
    for (const pool of Object.values(this.finished)) pool.delete(id);
    this.inFlight.delete(id);
  }

  /** Keeps the log within maxRecords: oldest delivered first, then oldest failed; never pending. */
  private trim(): void {
    for (const status of EVICTION_ORDER) {
      const pool = this.finished[status];
      // Stryker disable next-line ConditionalExpression,EqualityOperator: the check inside the loop returns before anything is dropped, so the early return only saves the walk.
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

function finishedPools(): Record<FinishedStatus, Set<string>> {
  return { delivered: new Set(), failed: new Set() };
}
