import { createPublicKey, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ManualClock, SystemClock, type Clock } from '../../src/core/clock.js';
import { ApiError } from '../../src/core/errors.js';
import { SeededIds } from '../../src/core/ids.js';
import { signingKeyFrom } from '../../src/core/keys.js';
import { Scheduler } from '../../src/core/scheduler.js';
import { Outbox, type Delivery, type DeliveryTarget, type OutboxOptions } from '../../src/webhooks/outbox.js';
import { RecordingTransport, type Responder } from '../../src/webhooks/recording-transport.js';
import { WebhookSigner } from '../../src/webhooks/signer.js';
import type { TransportResult } from '../../src/webhooks/transport.js';
import { RETRY_DELAYS_MS } from '../helpers/documented.js';

const START = Date.parse('2026-01-01T00:00:00.000Z');
const KEY = signingKeyFrom(new SeededIds('test-seed').rsaKey('webhooks'));
const OK: TransportResult = { statusCode: 200, error: null };
const FAIL: TransportResult = { statusCode: 500, error: null };
const ORG = '00000000-0000-4000-8000-000000000001';
const WEBHOOK = '00000000-0000-4000-8000-0000000000b1';

function setup(
  options: {
    responder?: Responder;
    maxRecords?: number;
    clock?: Clock;
    resolveTarget?: (d: Delivery) => DeliveryTarget;
    onChanged?: (d: Delivery) => void;
  } = {},
) {
  const clock = options.clock ?? new ManualClock(START);
  const scheduler = new Scheduler(clock);
  const transport = new RecordingTransport(options.responder ?? (() => OK));
  const opts: OutboxOptions = {
    clock,
    scheduler,
    ids: new SeededIds('outbox-test'),
    signer: new WebhookSigner(KEY),
    transport,
    maxRecords: options.maxRecords,
    resolveTarget: options.resolveTarget,
    onChanged: options.onChanged,
  };
  const outbox = new Outbox(opts);
  const enqueue = (url = 'http://receiver.test/hook', orgId: string | null = ORG) =>
    outbox.enqueue({
      orgId,
      webhookId: WEBHOOK,
      url,
      event: 'recording.statusUpdate',
      payload: { event: 'recording.statusUpdate', recording: { id: 'r1', nested: { a: [1, 2] } } },
    });
  /** Moves the manual clock and waits for the attempts that fell due. */
  const advance = async (ms: number) => {
    scheduler.advanceTo(clock.now() + ms);
    await outbox.idle();
  };
  return { clock, scheduler, transport, outbox, enqueue, advance, signer: opts.signer };
}

/** Waits until `ready()` holds: an attempt starts on the next turn and is signed on the thread pool first. Bounded. */
async function until(ready: () => boolean): Promise<void> {
  for (let turns = 0; turns < 100_000 && !ready(); turns++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Drives every documented retry of a delivery that keeps failing. */
async function exhaust(advance: (ms: number) => Promise<void>) {
  for (const delay of RETRY_DELAYS_MS) await advance(delay);
}

describe('Outbox: first attempt', () => {
  it.each([
    ['manual', () => new ManualClock(START)],
    ['real', () => new SystemClock(1, START)],
  ])('goes out at once on the %s clock, without any job or time passing', async (_mode, makeClock) => {
    const { outbox, enqueue, transport, scheduler } = setup({ clock: makeClock() });
    const d = enqueue();
    expect(d.status).toBe('pending');
    expect(scheduler.list()).toEqual([]);
    await outbox.idle();
    expect(transport.requests).toHaveLength(1);
    expect(d.status).toBe('delivered');
    expect(d.attempts).toEqual([{ at: expect.any(Number), statusCode: 200, error: null, durationMs: expect.any(Number), trigger: 'initial' }]);
    expect(d.nextAttemptAt).toBeNull();
  });

  it('sends attempts in the order they started, even when a later body was signed before', async () => {
    const { outbox, transport, signer } = setup();
    const started = { event: 'meeting.started', meeting: { id: 'm1' } } as const;
    const joined = { event: 'meeting.participantJoined', meeting: { id: 'm1' }, participant: { peerId: 'p1' } } as const;
    // The second body's signature is already known, so it is ready before the first one's.
    await signer.sign(JSON.stringify(joined));
    for (const payload of [started, joined])
      outbox.enqueue({ orgId: ORG, webhookId: WEBHOOK, url: 'http://receiver.test/hook', event: payload.event, payload });
    await outbox.idle();
    expect(transport.requests.map((r) => (JSON.parse(r.body.toString('utf8')) as { event: string }).event)).toEqual([
      'meeting.started',
      'meeting.participantJoined',
    ]);
  });

  it('does not send synchronously: the caller returns before the attempt starts', () => {
    const { enqueue, transport, outbox } = setup();
    enqueue();
    expect(transport.requests).toHaveLength(0);
    expect(outbox.isInFlight(outbox.list().items[0]!.id)).toBe(true);
    return outbox.idle();
  });

  it('sends compact JSON with the documented headers and a signature over exactly those bytes', async () => {
    const { outbox, enqueue, transport } = setup();
    const d = enqueue();
    await outbox.idle();
    const req = transport.requests[0]!;
    expect(req.body.toString('utf8')).toBe('{"event":"recording.statusUpdate","recording":{"id":"r1","nested":{"a":[1,2]}}}');
    expect(req.headers).toEqual({
      'content-type': 'application/json',
      // docs/webhooks.md: meetings-emulator-webhooks/<version> (+local emulator)
      'user-agent': expect.stringMatching(/^meetings-emulator-webhooks\/\d+\.\d+\.\d+\S* \(\+local emulator\)$/),
      'dyte-signature': expect.stringMatching(/^[A-Za-z0-9+/]+=*$/),
      'dyte-webhook-id': WEBHOOK,
      'dyte-uuid': d.id,
    });
    const publicKey = createPublicKey(KEY.publicPem);
    expect(verify('sha256', req.body, publicKey, Buffer.from(req.headers['dyte-signature']!, 'base64'))).toBe(true);
    expect(verify('sha256', Buffer.concat([req.body, Buffer.from(' ')]), publicKey, Buffer.from(req.headers['dyte-signature']!, 'base64'))).toBe(false);
    expect(req.timeoutMs).toBe(3000);
  });
});

describe('Outbox: retries on the emulator clock', () => {
  // Attempt k (k ≥ 1) is due RETRY_DELAYS_MS[k-1] after the failure of attempt k-1; on a
  // manual clock a failure lands at the time its attempt started.
  const EXPECTED_AT = [0, 1_000, 6_000, 36_000, 156_000, 756_000];

  it.each([
    [0, 'delivered'],
    [1, 'delivered'],
    [2, 'delivered'],
    [3, 'delivered'],
    [4, 'delivered'],
    [5, 'delivered'],
    [6, 'failed'],
  ] as const)('with %i failing answers: attempts at exactly 0, 1 s, 6 s, 36 s, 156 s, 756 s, then %s', async (failures, finalStatus) => {
    const { outbox, enqueue, advance, transport, scheduler } = setup({ responder: (_r, i) => (i < failures ? FAIL : OK) });
    const d = enqueue();
    await outbox.idle();
    for (const delay of RETRY_DELAYS_MS) {
      if (d.status !== 'pending') break;
      const before = d.attempts.length;
      expect(d.nextAttemptAt).toBe(d.attempts.at(-1)!.at + delay);
      await advance(delay - 1);
      expect(d.attempts).toHaveLength(before);
      await advance(1);
      expect(d.attempts).toHaveLength(before + 1);
    }
    expect(d.status).toBe(finalStatus);
    const attempts = Math.min(failures + 1, 6);
    expect(d.attempts.map((a) => a.at - START)).toEqual(EXPECTED_AT.slice(0, attempts));
    expect(d.attempts.map((a) => a.trigger)).toEqual(['initial', ...Array(attempts - 1).fill('retry')]);
    expect(transport.requests).toHaveLength(attempts);
    // Nothing more happens, however far the clock goes.
    expect(scheduler.list()).toEqual([]);
    await advance(24 * 60 * 60 * 1000);
    expect(transport.requests).toHaveLength(attempts);
    expect(d.nextAttemptAt).toBeNull();
    if (finalStatus === 'failed') expect(d.failureReason).toBe('No 2xx answer after 6 attempts (last: Non-2xx answer: HTTP 500)');
    else expect(d.failureReason).toBeNull();
  });

  it('sends the same bytes, signature and dyte-uuid on every attempt', async () => {
    const { outbox, enqueue, advance, transport } = setup({ responder: () => FAIL });
    const d = enqueue();
    await outbox.idle();
    await exhaust(advance);
    expect(transport.requests).toHaveLength(6);
    const first = transport.requests[0]!;
    for (const r of transport.requests) {
      expect(r.headers['dyte-uuid']).toBe(d.id);
      expect(r.headers['dyte-signature']).toBe(first.headers['dyte-signature']);
      expect(r.body.equals(first.body)).toBe(true);
    }
  });

  it.each([
    ['a non-2xx answer', { statusCode: 503, error: null }, 'Non-2xx answer: HTTP 503'],
    ['a 3xx answer (redirects are not followed)', { statusCode: 302, error: null }, 'Non-2xx answer: HTTP 302'],
    ['a connection error', { statusCode: null, error: 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9' }, 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9'],
    ['no answer in time', { statusCode: null, error: 'Timed out: no answer within 3000 ms' }, 'Timed out: no answer within 3000 ms'],
  ])('counts %s as a failure and schedules the first retry 1 s later', async (_name, result, error) => {
    const { outbox, enqueue, scheduler } = setup({ responder: () => result });
    const d = enqueue();
    await outbox.idle();
    expect(d.status).toBe('pending');
    expect(d.attempts[0]).toMatchObject({ statusCode: result.statusCode, error });
    expect(d.nextAttemptAt).toBe(START + 1_000);
    expect(scheduler.list().map((j) => ({ at: j.at, kind: j.kind, payload: j.payload }))).toEqual([
      { at: START + 1_000, kind: 'webhook.retry', payload: { deliveryId: d.id, orgId: ORG } },
    ]);
  });

  it('counts the retry delay from the failure, not from the attempt start (a real clock moves during the attempt)', async () => {
    const clock = new ManualClock(START);
    const { outbox, enqueue } = setup({
      clock,
      responder: () => {
        clock.set(clock.now() + 3_000); // the receiver took 3 s of emulated time to fail
        return { statusCode: null, error: 'Timed out: no answer within 3000 ms' };
      },
    });
    const d = enqueue();
    await outbox.idle();
    expect(d.attempts[0]!.at).toBe(START);
    expect(d.nextAttemptAt).toBe(START + 3_000 + 1_000);
  });

  it('stops when the target says so (webhook disabled or deleted since), without a further attempt', async () => {
    let target: DeliveryTarget = { url: 'http://receiver.test/hook' };
    const { outbox, enqueue, advance, transport } = setup({ responder: () => FAIL, resolveTarget: () => target });
    const d = enqueue();
    await outbox.idle();
    target = { stop: 'The webhook was disabled; no further attempts' };
    await advance(1_000);
    expect(transport.requests).toHaveLength(1);
    expect(d.status).toBe('failed');
    expect(d.failureReason).toBe('The webhook was disabled; no further attempts');
    expect(d.nextAttemptAt).toBeNull();
  });

  it("sends retries to the webhook's current url", async () => {
    let url = 'http://old.test/hook';
    const { outbox, enqueue, advance, transport } = setup({ responder: (r) => (r.url === 'http://new.test/hook' ? OK : FAIL), resolveTarget: () => ({ url }) });
    const d = enqueue(url);
    await outbox.idle();
    url = 'http://new.test/hook';
    await advance(1_000);
    expect(transport.requests.map((r) => r.url)).toEqual(['http://old.test/hook', 'http://new.test/hook']);
    expect(d).toMatchObject({ status: 'delivered', url: 'http://new.test/hook' });
  });
});

describe('Outbox: redeliver', () => {
  it('sends a failed delivery again with the same dyte-uuid; a 2xx makes it delivered', async () => {
    const { outbox, enqueue, advance, transport } = setup({ responder: () => FAIL });
    const d = enqueue();
    await outbox.idle();
    await exhaust(advance);
    expect(d.status).toBe('failed');
    transport.respondWith(() => OK);
    const after = await outbox.redeliver(d.id);
    expect(after).toBe(d);
    expect(d.status).toBe('delivered');
    expect(d.failureReason).toBeNull();
    expect(d.attempts).toHaveLength(7);
    expect(d.attempts.at(-1)).toMatchObject({ trigger: 'redeliver', statusCode: 200, error: null });
    expect(transport.requests.at(-1)!.headers['dyte-uuid']).toBe(d.id);
  });

  it('makes a delivered delivery failed when the extra attempt fails, with no automatic retries after it', async () => {
    const { outbox, enqueue, scheduler, transport } = setup();
    const d = enqueue();
    await outbox.idle();
    transport.respondWith(() => FAIL);
    await outbox.redeliver(d.id);
    expect(d.status).toBe('failed');
    expect(d.failureReason).toBe('Non-2xx answer: HTTP 500');
    expect(scheduler.list()).toEqual([]);
  });

  it('on a pending delivery, brings its next retry forward: the schedule continues from there', async () => {
    const { outbox, enqueue, advance, scheduler } = setup({ responder: () => FAIL });
    const d = enqueue();
    await outbox.idle();
    await advance(400);
    await outbox.redeliver(d.id);
    expect(d.attempts.map((a) => [a.at - START, a.trigger])).toEqual([
      [0, 'initial'],
      [400, 'redeliver'],
    ]);
    expect(d.status).toBe('pending');
    expect(d.nextAttemptAt).toBe(START + 400 + 5_000);
    expect(scheduler.list().map((j) => j.at)).toEqual([START + 5_400]);
  });

  it('on a pending delivery, takes the retry it brings forward off the schedule while the redelivery is under way', async () => {
    const { outbox, enqueue, advance, scheduler } = setup({ responder: () => FAIL });
    const d = enqueue();
    await outbox.idle();
    await advance(400);
    expect(scheduler.list().map((j) => j.at)).toEqual([START + 1_000]);
    const redelivery = outbox.redeliver(d.id);
    // What a state export taken now holds: no retry at 1 s, that retry is the attempt under way.
    expect(scheduler.list()).toEqual([]);
    await redelivery;
    expect(scheduler.list().map((j) => j.at)).toEqual([START + 5_400]);
  });

  it('sends a delivery that a disabled or deleted webhook stopped: an explicit redelivery still goes to its url', async () => {
    const reason = 'The webhook was disabled; no further attempts';
    const { outbox, enqueue, transport } = setup({ resolveTarget: () => ({ stop: reason }) });
    const d = enqueue();
    await outbox.idle();
    expect(d).toMatchObject({ status: 'failed', failureReason: reason, attempts: [] });
    expect(transport.requests).toHaveLength(0);
    await outbox.redeliver(d.id);
    expect(transport.requests.map((r) => r.url)).toEqual(['http://receiver.test/hook']);
    expect(d).toMatchObject({ status: 'delivered', failureReason: null, attempts: [{ trigger: 'redeliver', statusCode: 200, error: null }] });
  });

  it('answers 404 for an unknown id and 409 while an attempt is in flight', async () => {
    let release: ((r: TransportResult) => void) | undefined;
    const { outbox, enqueue } = setup({ responder: () => new Promise<TransportResult>((resolve) => (release = resolve)) });
    const d = enqueue();
    await expect(outbox.redeliver('00000000-0000-4000-8000-00000000dead')).rejects.toMatchObject({
      status: 404,
      message: 'No delivery found with id 00000000-0000-4000-8000-00000000dead',
    });
    await expect(outbox.redeliver(d.id)).rejects.toBeInstanceOf(ApiError);
    await expect(outbox.redeliver(d.id)).rejects.toMatchObject({ status: 409 });
    // the attempt is under way once the transport was called (after signing, on the thread pool)
    for (let turns = 0; turns < 100_000 && !release; turns++) await new Promise<void>((resolve) => setImmediate(resolve));
    release!(OK);
    await outbox.idle();
    expect(d.status).toBe('delivered');
  });
});

describe('Outbox: the bounded log', () => {
  it.each([
    [3, 2, 2],
    [3, 3, 3],
    [3, 4, 3],
    [3, 10, 3],
  ])('bound %i: after %i delivered records the log holds %i, the newest', async (bound, count, kept) => {
    const { outbox, enqueue } = setup({ maxRecords: bound });
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      ids.push(enqueue().id);
      await outbox.idle();
    }
    expect(outbox.size).toBe(kept);
    expect(outbox.list().items.map((d) => d.id)).toEqual(ids.slice(-kept).reverse());
  });

  it('drops delivered records first, then failed ones, and never a pending one', async () => {
    const { outbox, enqueue, advance } = setup({ maxRecords: 2, responder: (r) => (r.url.includes('fail') ? FAIL : OK) });
    const failed = enqueue('http://fail.test/');
    await outbox.idle();
    await exhaust(advance);
    expect(failed.status).toBe('failed');
    const d1 = enqueue('http://ok.test/');
    await outbox.idle();
    const d2 = enqueue('http://ok.test/');
    await outbox.idle();
    // over the bound: the older delivered record goes, although the failed one is older still
    expect(outbox.list().items.map((d) => d.id)).toEqual([d2.id, failed.id]);
    const p1 = enqueue('http://fail.test/');
    await outbox.idle();
    expect(outbox.list().items.map((d) => d.id)).toEqual([p1.id, failed.id]);
    expect(outbox.get(d1.id)).toBeUndefined();
    const p2 = enqueue('http://fail.test/');
    await outbox.idle();
    expect(outbox.list().items.map((d) => d.id)).toEqual([p2.id, p1.id]);
    // only pending records left: the log grows past its bound rather than lose one
    const p3 = enqueue('http://fail.test/');
    await outbox.idle();
    expect(outbox.list().items.map((d) => d.id)).toEqual([p3.id, p2.id, p1.id]);
    expect(outbox.list({ status: 'pending' }).total).toBe(3);
    // once they finish, the log is trimmed back to its bound
    await exhaust(advance);
    expect(outbox.size).toBe(2);
  });

  it('keeps a delivered record whose redelivery is under way, dropping the next oldest one instead', async () => {
    let release: ((r: TransportResult) => void) | undefined;
    const { outbox, enqueue, transport } = setup({ maxRecords: 2 });
    const a = enqueue();
    await outbox.idle();
    const b = enqueue();
    await outbox.idle();
    transport.respondWith((r) => (r.headers['dyte-uuid'] === a.id ? new Promise<TransportResult>((resolve) => (release = resolve)) : OK));
    const redelivery = outbox.redeliver(a.id);
    // Over the bound: a is the oldest delivered record, but its redelivery has not ended.
    const c = enqueue();
    expect(outbox.list().items.map((d) => d.id)).toEqual([c.id, a.id]);
    await until(() => release !== undefined);
    release!(OK);
    expect(await redelivery).toBe(a);
    await outbox.idle();
    expect(outbox.get(b.id)).toBeUndefined();
    expect(outbox.get(a.id)).toMatchObject({ status: 'delivered', attempts: [{ trigger: 'initial' }, { trigger: 'redeliver', statusCode: 200 }] });
  });

  it('filters by webhook, event, status and organization, newest first, with a total', async () => {
    const { outbox } = setup({ responder: (r) => (r.url.includes('fail') ? FAIL : OK) });
    const a = outbox.enqueue({ orgId: ORG, webhookId: 'w1', url: 'http://ok.test/', event: 'meeting.started', payload: {} });
    const b = outbox.enqueue({ orgId: ORG, webhookId: 'w2', url: 'http://fail.test/', event: 'meeting.started', payload: {} });
    const c = outbox.enqueue({ orgId: 'other', webhookId: 'w1', url: 'http://ok.test/', event: 'meeting.ended', payload: {} });
    await outbox.idle();
    const ids = (f: Parameters<Outbox['list']>[0], limit?: number) => outbox.list(f, limit).items.map((d) => d.id);
    expect(ids({})).toEqual([c.id, b.id, a.id]);
    expect(ids({ webhookId: 'w1' })).toEqual([c.id, a.id]);
    expect(ids({ event: 'meeting.started' })).toEqual([b.id, a.id]);
    expect(ids({ status: 'pending' })).toEqual([b.id]);
    expect(ids({ status: 'delivered', orgId: ORG })).toEqual([a.id]);
    expect(outbox.list({}, 1)).toEqual({ items: [c], total: 3 });
  });
});

describe('Outbox: reset, organization reset, snapshot', () => {
  it('reset forgets records and retries; an attempt in flight at the time is dropped', async () => {
    let release: (r: TransportResult) => void = () => {};
    const { outbox, enqueue, scheduler } = setup({ responder: () => new Promise<TransportResult>((resolve) => (release = resolve)) });
    const d = enqueue();
    await new Promise<void>((resolve) => setImmediate(resolve));
    outbox.reset();
    release(FAIL);
    await outbox.idle();
    expect(outbox.size).toBe(0);
    expect(d.attempts).toEqual([]);
    expect(scheduler.list()).toEqual([]);
  });

  it('reset: an attempt it dropped reports no further change of its delivery (the dashboard feed)', async () => {
    let release: ((r: TransportResult) => void) | undefined;
    const changes: Array<[string, string]> = [];
    const { outbox, enqueue } = setup({
      responder: () => new Promise<TransportResult>((resolve) => (release = resolve)),
      onChanged: (d) => changes.push([d.id, d.status]),
    });
    const d = enqueue();
    await until(() => release !== undefined);
    outbox.reset();
    release!(OK);
    await outbox.idle();
    expect(changes).toEqual([[d.id, 'pending']]);
    expect(d.attempts).toEqual([]);
  });

  it("resetOrg drops one organization's records and their retry jobs", async () => {
    const { outbox, enqueue, scheduler } = setup({ responder: () => FAIL });
    enqueue('http://a.test/', ORG);
    const other = enqueue('http://b.test/', 'other-org');
    await outbox.idle();
    expect(scheduler.list()).toHaveLength(2);
    outbox.resetOrg(ORG);
    expect(outbox.list().items.map((d) => d.id)).toEqual([other.id]);
    expect(scheduler.list().map((j) => j.payload.deliveryId)).toEqual([other.id]);
  });

  it('restore brings pending deliveries back with their retry at next_attempt_at', async () => {
    const first = setup({ responder: () => FAIL });
    const d = first.enqueue();
    await first.outbox.idle();
    const snapshot = first.outbox.snapshot();
    expect(snapshot).toEqual([{ ...d, retries: 0 }]);
    expect(snapshot[0]).not.toBe(d);

    const second = setup();
    second.outbox.restore(snapshot);
    expect(second.scheduler.list().map((j) => j.at)).toEqual([START + 1_000]);
    await second.advance(1_000);
    expect(second.outbox.get(d.id)).toMatchObject({ status: 'delivered', attempts: [{ trigger: 'initial' }, { trigger: 'retry', at: START + 1_000 }] });
  });

  it('restore: a retry job left over for a delivery that is already delivered sends nothing', async () => {
    const first = setup();
    const d = first.enqueue();
    await first.outbox.idle();
    expect(d.status).toBe('delivered');
    // A state document whose jobs and deliveries disagree (edited by hand, or put together from
    // two exports): the delivery is delivered, yet a retry job for it remains.
    const second = setup();
    second.scheduler.restore([{ key: `webhook:${d.id}:retry`, at: START + 1_000, kind: 'webhook.retry', payload: { deliveryId: d.id, orgId: ORG }, seq: 0 }]);
    second.outbox.restore(first.outbox.snapshot());
    await second.advance(1_000);
    expect(second.transport.requests).toHaveLength(0);
    expect(second.outbox.get(d.id)).toMatchObject({ status: 'delivered', attempts: [{ trigger: 'initial', statusCode: 200 }] });
    expect(second.outbox.get(d.id)!.attempts).toHaveLength(1);
  });
});
