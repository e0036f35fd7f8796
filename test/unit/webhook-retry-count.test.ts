// How a delivery's retries are counted, in the terms a user sees: the attempts in the delivery
// log and the `retries` of a state export. One rule: the automatic attempts are the first one
// and then one per retry, until a 2xx or the sixth; a redelivery of a pending delivery is its
// next retry brought forward; only attempts made count.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { SeededIds } from '../../src/core/ids.js';
import { signingKeyFrom } from '../../src/core/keys.js';
import { Scheduler } from '../../src/core/scheduler.js';
import { Outbox, retriesOf, type DeliveryAttempt, type SavedDelivery } from '../../src/webhooks/outbox.js';
import { WebhookSigner } from '../../src/webhooks/signer.js';
import type { TransportResult, WebhookTransport } from '../../src/webhooks/transport.js';
import { INTERRUPTED_ERROR } from '../helpers/documented.js';

const START = Date.parse('2026-01-01T00:00:00.000Z');
const KEY = signingKeyFrom(new SeededIds('test-seed').rsaKey('webhooks'));
const ORG = '00000000-0000-4000-8000-000000000001';
const OK: TransportResult = { statusCode: 200, error: null };
const FAIL: TransportResult = { statusCode: 500, error: null };

/** Answers from a script, one per request (the last repeats); 'hold' waits for close(). */
class ScriptedTransport implements WebhookTransport {
  sent = 0;
  private held: Array<(r: TransportResult) => void> = [];
  constructor(private script: Array<TransportResult | 'hold'>) {}
  send(): Promise<TransportResult> {
    const answer = this.script[Math.min(this.sent, this.script.length - 1)]!;
    this.sent += 1;
    if (answer !== 'hold') return Promise.resolve(answer);
    return new Promise((resolve) => this.held.push(resolve));
  }
  close(): void {
    for (const resolve of this.held.splice(0)) resolve({ statusCode: null, error: 'ECONNRESET: socket hang up' });
  }
}

function setup(script: Array<TransportResult | 'hold'>) {
  const clock = new ManualClock(START);
  const scheduler = new Scheduler(clock);
  const transport = new ScriptedTransport(script);
  const outbox = new Outbox({ clock, scheduler, ids: new SeededIds('retry-count'), signer: new WebhookSigner(KEY), transport });
  const enqueue = () => outbox.enqueue({ orgId: ORG, webhookId: 'w1', url: 'http://receiver.test/hook', event: 'meeting.started', payload: {} });
  const advance = async (ms: number) => {
    scheduler.advanceTo(clock.now() + ms);
    await outbox.idle();
  };
  /** The delivery as a state export holds it. */
  const saved = (id: string): SavedDelivery => outbox.snapshot().find((d) => d.id === id)!;
  return { clock, scheduler, transport, outbox, enqueue, advance, saved };
}

const attempt = (trigger: DeliveryAttempt['trigger'], statusCode: number | null): DeliveryAttempt => ({
  at: START,
  statusCode,
  error: null,
  durationMs: 0,
  trigger,
});

describe('retriesOf', () => {
  it.each([
    ['no attempt yet', [], 0],
    ['a first attempt that failed', [attempt('initial', 500)], 0],
    ['a first attempt cut off at shutdown', [attempt('initial', null)], 0],
    ['one failed retry', [attempt('initial', 500), attempt('retry', 503)], 1],
    ['delivered on the third retry', [attempt('initial', 500), attempt('retry', 500), attempt('retry', null), attempt('retry', 204)], 3],
    ['a redelivery that brought the first retry forward', [attempt('initial', 500), attempt('redeliver', 500)], 1],
    ['a first attempt made by a redelivery', [attempt('redeliver', 500)], 0],
    ['six failed attempts', [attempt('initial', 500), ...Array.from({ length: 5 }, () => attempt('retry', 500))], 5],
    [
      'redeliveries after the sixth failure',
      [attempt('initial', 500), ...Array.from({ length: 5 }, () => attempt('retry', 500)), attempt('redeliver', 200), attempt('redeliver', 500)],
      5,
    ],
    ['redeliveries of a delivered delivery', [attempt('initial', 200), attempt('redeliver', 500), attempt('redeliver', 500)], 0],
    ['a redelivery after a delivered retry', [attempt('initial', 500), attempt('retry', 200), attempt('redeliver', 500)], 1],
  ])('%s: %#', (_name, attempts, retries) => {
    expect(retriesOf(attempts)).toBe(retries);
  });
});

describe('the retry count as a user sees it', () => {
  it('after N failed attempts the next one is due 1 s, 5 s, 30 s, 2 min, 10 min (N = 1..5) after the last failure; the sixth failure ends it', async () => {
    const { enqueue, advance, outbox, saved } = setup([FAIL]);
    const d = enqueue();
    await outbox.idle();
    const delays = [1_000, 5_000, 30_000, 120_000, 600_000];
    for (const [n, delay] of delays.entries()) {
      expect(saved(d.id)).toMatchObject({ status: 'pending', retries: n, nextAttemptAt: d.attempts.at(-1)!.at + delay });
      await advance(delay);
    }
    expect(saved(d.id)).toMatchObject({ status: 'failed', retries: 5, nextAttemptAt: null });
    expect(d.attempts).toHaveLength(6);
  });

  it('a redelivery of a pending delivery uses up one of its 5 retries: 6 attempts in all', async () => {
    const { enqueue, advance, outbox, saved } = setup([FAIL]);
    const d = enqueue();
    await outbox.idle();
    await outbox.redeliver(d.id);
    expect(saved(d.id)).toMatchObject({ status: 'pending', retries: 1, nextAttemptAt: START + 5_000 });
    for (const delay of [5_000, 30_000, 120_000, 600_000]) await advance(delay);
    expect(d.attempts.map((a) => a.trigger)).toEqual(['initial', 'redeliver', 'retry', 'retry', 'retry', 'retry']);
    expect(saved(d.id)).toMatchObject({ status: 'failed', retries: 5 });
  });

  it('redelivering a finished delivery adds attempts but no retries', async () => {
    const { enqueue, outbox, saved } = setup([OK, FAIL]);
    const d = enqueue();
    await outbox.idle();
    await outbox.redeliver(d.id);
    await outbox.redeliver(d.id);
    expect(d.attempts).toHaveLength(3);
    expect(saved(d.id)).toMatchObject({ status: 'failed', retries: 0 });
  });

  it('an attempt cut off at shutdown counts once; one due after the shutdown began is not made and not counted', async () => {
    const { enqueue, advance, outbox, saved, transport, scheduler, clock } = setup([FAIL, 'hold']);
    const d = enqueue();
    await outbox.idle();
    // The first retry goes out and the receiver holds it until the shutdown cuts it off.
    scheduler.advanceTo(clock.now() + 1_000);
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(outbox.isInFlight(d.id)).toBe(true);
    await outbox.interrupt();
    expect(d.attempts.map((a) => [a.trigger, a.error])).toEqual([
      ['initial', 'Non-2xx answer: HTTP 500'],
      ['retry', INTERRUPTED_ERROR],
    ]);
    expect(saved(d.id)).toMatchObject({ status: 'pending', retries: 1, nextAttemptAt: START + 1_000 + 5_000 });
    // The next retry falls due after the shutdown began: not made, so the count stays.
    await advance(5_000);
    expect(transport.sent).toBe(2);
    expect(saved(d.id)).toMatchObject({ status: 'pending', retries: 1 });
  });

  it('a fifth retry cut off at shutdown ends the delivery failed, as any failed fifth retry does', async () => {
    const { enqueue, advance, outbox, saved, scheduler, clock } = setup([FAIL, FAIL, FAIL, FAIL, FAIL, 'hold']);
    const d = enqueue();
    await outbox.idle();
    for (const delay of [1_000, 5_000, 30_000, 120_000]) await advance(delay);
    scheduler.advanceTo(clock.now() + 600_000);
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(outbox.isInFlight(d.id)).toBe(true);
    await outbox.interrupt();
    expect(d.attempts.at(-1)).toMatchObject({ trigger: 'retry', error: INTERRUPTED_ERROR });
    expect(saved(d.id)).toMatchObject({ status: 'failed', retries: 5, failureReason: `No 2xx answer after 6 attempts (last: ${INTERRUPTED_ERROR})` });
  });

  it('an import reads the count off the attempts, whatever count the document states', async () => {
    const first = setup([FAIL]);
    const d = first.enqueue();
    await first.outbox.idle();
    const doc = { ...first.saved(d.id), retries: 4 };
    const next = setup([FAIL]);
    next.outbox.restore([doc]);
    await next.advance(1_000);
    // Two failed attempts: the next retry is the second, 5 s later, not the give-up a count of 5 would mean.
    expect(next.saved(d.id)).toMatchObject({ status: 'pending', retries: 1, nextAttemptAt: START + 1_000 + 5_000 });
  });
});
