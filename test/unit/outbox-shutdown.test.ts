// The outbox at shutdown and in state exports taken while an attempt is in flight:
// interrupt() cuts attempts off and records them, nothing starts after it, and an export never
// counts an unfinished attempt against the retries.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { SeededIds } from '../../src/core/ids.js';
import { signingKeyFrom } from '../../src/core/keys.js';
import { Scheduler } from '../../src/core/scheduler.js';
import { deliveryRecord } from '../../src/store/state-records.js';
import { Outbox, retriesOf, type DeliveryTarget } from '../../src/webhooks/outbox.js';
import { WebhookSigner } from '../../src/webhooks/signer.js';
import type { TransportRequest, TransportResult, WebhookTransport } from '../../src/webhooks/transport.js';
import { INTERRUPTED_ERROR, RETRY_DELAYS_MS } from '../helpers/documented.js';

const START = Date.parse('2026-01-01T00:00:00.000Z');
const KEY = signingKeyFrom(new SeededIds('test-seed').rsaKey('webhooks'));
const ORG = '00000000-0000-4000-8000-000000000001';
const WEBHOOK = '00000000-0000-4000-8000-0000000000b1';

/**
 * Answers what `answer` says; 'hold' keeps the request open until close(), which ends it as a
 * connection error, the way HttpTransport's close() does (it destroys the sockets).
 */
class HoldingTransport implements WebhookTransport {
  readonly sent: TransportRequest[] = [];
  private held: Array<(r: TransportResult) => void> = [];
  /** What a held request ends with on close(): by default, sent and then cut off. */
  onClose: TransportResult = { statusCode: null, error: 'ECONNRESET: socket hang up' };
  constructor(public answer: (i: number) => TransportResult | 'hold') {}

  send(request: TransportRequest): Promise<TransportResult> {
    const a = this.answer(this.sent.length);
    this.sent.push(request);
    if (a !== 'hold') return Promise.resolve(a);
    return new Promise((resolve) => this.held.push(resolve));
  }

  get holding(): number {
    return this.held.length;
  }

  close(): void {
    for (const resolve of this.held.splice(0)) resolve(this.onClose);
  }
}

function setup(answer: (i: number) => TransportResult | 'hold', resolveTarget?: () => DeliveryTarget) {
  const clock = new ManualClock(START);
  const scheduler = new Scheduler(clock);
  const transport = new HoldingTransport(answer);
  const outbox = new Outbox({ clock, scheduler, ids: new SeededIds('outbox-shutdown'), signer: new WebhookSigner(KEY), transport, resolveTarget });
  let enqueued = 0;
  const enqueue = () => {
    enqueued += 1;
    return outbox.enqueue({
      orgId: ORG,
      webhookId: WEBHOOK,
      url: 'http://receiver.test/hook',
      event: 'recording.statusUpdate',
      payload: { event: 'recording.statusUpdate' },
    });
  };
  /**
   * Waits until the transport has had `requests` requests (default: one per delivery enqueued so
   * far): an attempt starts on the next turn and is signed on the thread pool first. Bounded, so
   * a broken outbox fails the test's own assertions instead of hanging it.
   */
  const started = async (requests = enqueued) => {
    for (let turns = 0; turns < 100_000 && transport.sent.length < requests; turns++) await new Promise<void>((resolve) => setImmediate(resolve));
  };
  return { clock, scheduler, transport, outbox, enqueue, started };
}

const FAIL: TransportResult = { statusCode: 500, error: null };
const OK: TransportResult = { statusCode: 200, error: null };

describe('Outbox.interrupt() (server shutdown)', () => {
  it('cuts off the attempts in flight, records each as an interrupted attempt and schedules its retry', async () => {
    const { outbox, enqueue, transport, scheduler, started } = setup(() => 'hold');
    const a = enqueue();
    const b = enqueue();
    await started();
    expect(transport.holding).toBe(2);
    await outbox.interrupt();
    for (const d of [a, b]) {
      expect(d.status).toBe('pending');
      expect(d.attempts).toEqual([{ at: START, statusCode: null, error: INTERRUPTED_ERROR, durationMs: expect.any(Number), trigger: 'initial' }]);
      expect(d.nextAttemptAt).toBe(START + RETRY_DELAYS_MS[0]);
      expect(scheduler.list().find((j) => j.key === `webhook:${d.id}:retry`)).toMatchObject({ at: START + RETRY_DELAYS_MS[0], kind: 'webhook.retry' });
    }
    expect(outbox.isInFlight(a.id) || outbox.isInFlight(b.id)).toBe(false);
  });

  it('does not count an attempt cut off before its request was written: the delivery stays as it was and goes out after a restart', async () => {
    const { outbox, enqueue, transport, started } = setup(() => 'hold');
    transport.onClose = { statusCode: null, error: 'ECONNRESET: socket hang up', sent: false };
    const d = enqueue();
    await started();
    await outbox.interrupt();
    expect(d).toMatchObject({ status: 'pending', attempts: [], nextAttemptAt: START });
    const next = setup(() => OK);
    next.outbox.restore(outbox.snapshot());
    next.scheduler.advanceTo(START);
    await next.outbox.idle();
    expect(next.transport.sent.map((r) => r.headers['dyte-uuid'])).toEqual([d.id]);
    expect(next.outbox.get(d.id)).toMatchObject({ status: 'delivered', attempts: [{ statusCode: 200, trigger: 'initial' }] });
  });

  it('records an answer that came in as the shutdown began as that answer, not as an interruption', async () => {
    const { outbox, enqueue, transport, started } = setup(() => 'hold');
    // The receiver's 500 arrives as the transport closes: the attempt ended with an answer.
    transport.onClose = { statusCode: 500, error: null };
    const d = enqueue();
    await started();
    await outbox.interrupt();
    expect(d.attempts).toEqual([{ at: START, statusCode: 500, error: 'Non-2xx answer: HTTP 500', durationMs: expect.any(Number), trigger: 'initial' }]);
    expect(d).toMatchObject({ status: 'pending', nextAttemptAt: START + RETRY_DELAYS_MS[0] });
  });

  it('decides nothing afterwards: a due retry whose webhook was disabled meanwhile stays pending, and is stopped after the restart', async () => {
    const reason = 'The webhook was disabled; no further attempts';
    let target: DeliveryTarget = { url: 'http://receiver.test/hook' };
    const { outbox, enqueue, transport, scheduler, clock } = setup(
      () => FAIL,
      () => target,
    );
    const d = enqueue();
    await outbox.idle();
    await outbox.interrupt();
    target = { stop: reason };
    scheduler.advanceTo(clock.now() + 60_000);
    await outbox.idle();
    expect(transport.sent).toHaveLength(1);
    expect(d).toMatchObject({ status: 'pending', failureReason: null, nextAttemptAt: START + 1_000 });
    expect(d.attempts).toHaveLength(1);
    // After a restart from the state saved now, the retry falls due and finds the webhook disabled.
    const next = setup(
      () => OK,
      () => target,
    );
    next.outbox.restore(outbox.snapshot());
    next.scheduler.advanceTo(START + 1_000);
    await next.outbox.idle();
    expect(next.transport.sent).toHaveLength(0);
    expect(next.outbox.get(d.id)).toMatchObject({ status: 'failed', failureReason: reason, nextAttemptAt: null });
  });

  it('starts nothing afterwards: new deliveries and due retries stay pending, with their retry not counted', async () => {
    const { outbox, enqueue, transport, scheduler, clock } = setup((i) => (i === 0 ? FAIL : OK));
    const retried = enqueue();
    await outbox.idle();
    expect(retried.nextAttemptAt).toBe(START + 1_000);
    await outbox.interrupt();
    const fresh = enqueue();
    scheduler.advanceTo(clock.now() + 60_000);
    await outbox.idle();
    expect(transport.sent).toHaveLength(1);
    expect(fresh).toMatchObject({ status: 'pending', attempts: [], nextAttemptAt: START });
    expect(retriesOf(fresh.attempts)).toBe(0);
    expect(retried).toMatchObject({ status: 'pending', nextAttemptAt: START + 1_000 });
    expect(retriesOf(retried.attempts)).toBe(0);
    expect(retried.attempts).toHaveLength(1);
    // What a state file saved now holds resumes in a fresh outbox: both go out.
    const next = setup(() => OK);
    next.outbox.restore(outbox.snapshot());
    next.scheduler.advanceTo(START + 1_000);
    await next.outbox.idle();
    expect(next.transport.sent.map((r) => r.headers['dyte-uuid']).sort()).toEqual([fresh.id, retried.id].sort());
    expect(next.outbox.get(retried.id)).toMatchObject({ status: 'delivered' });
    expect(retriesOf(next.outbox.get(retried.id)!.attempts)).toBe(1);
    expect(next.outbox.get(fresh.id)).toMatchObject({ status: 'delivered' });
    expect(retriesOf(next.outbox.get(fresh.id)!.attempts)).toBe(0);
  });
});

describe('Outbox.snapshot() with an attempt in flight', () => {
  it('exports the unfinished attempt as not made yet: after an import it is made again and counted once, so the delivery still gets all its retries', async () => {
    // Fails the first attempt and every retry; the fifth retry (attempt 6) is held.
    const { outbox, enqueue, transport, scheduler, clock, started } = setup((i) => (i === 5 ? 'hold' : FAIL));
    const d = enqueue();
    await outbox.idle();
    for (const delay of RETRY_DELAYS_MS.slice(0, 4)) {
      scheduler.advanceTo(clock.now() + delay);
      await outbox.idle();
    }
    scheduler.advanceTo(clock.now() + RETRY_DELAYS_MS[4]);
    await started(6);
    // The fifth retry (the sixth attempt) is under way.
    expect(transport.holding).toBe(1);
    expect(outbox.isInFlight(d.id)).toBe(true);
    expect(d.attempts).toHaveLength(5);
    const [exported] = outbox.snapshot();
    // It fits the state file's schema (retries at most 5) and reads as 5 attempts made.
    expect(() => deliveryRecord().parse(exported)).not.toThrow();
    expect(exported).toMatchObject({ status: 'pending', retries: 4 });
    expect(exported!.attempts).toHaveLength(5);
    transport.close();
    await outbox.idle();

    // Imported elsewhere: the fifth retry is made again, fails, and only then the delivery fails.
    const next = setup(() => FAIL);
    next.outbox.restore([exported!]);
    next.scheduler.advanceTo(exported!.nextAttemptAt!);
    await next.outbox.idle();
    const after = next.outbox.get(d.id)!;
    expect(next.transport.sent).toHaveLength(1);
    expect(after).toMatchObject({ status: 'failed', failureReason: 'No 2xx answer after 6 attempts (last: Non-2xx answer: HTTP 500)' });
    expect(next.outbox.snapshot()[0]).toMatchObject({ retries: 5 });
    expect(after.attempts).toHaveLength(6);
  });
});
