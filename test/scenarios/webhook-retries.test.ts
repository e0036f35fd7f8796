// Retries, timeouts, slow receivers, disabled webhooks, redelivery and the bounded log, with
// real receivers on 127.0.0.1 (port 0) and the manual clock. Retries are driven with advance();
// the network is awaited with the outbox's idle(), never with a sleep.
import { describe, expect, it, vi } from 'vitest';
import { BASIC, START, type TestApp } from '../helpers/test-app.js';
import { Receiver, advanceAndSettle, deliveries, registerWebhook, trackNetwork } from '../helpers/webhook-receiver.js';
import { RETRY_DELAYS_MS } from '../helpers/documented.js';
import { createMeeting, startRecording } from '../helpers/builders.js';

const iso = (ms: number) => new Date(ms).toISOString();

const net = trackNetwork();
const app = net.app;
async function receiver(...args: Parameters<typeof Receiver.start>): Promise<Receiver> {
  return net.receiver(await Receiver.start(...args), (r) => r.dropHanging());
}

/**
 * One recording.statusUpdate delivery (INVOKED) to `url`, first attempt finished. The simulator
 * is switched to manual, so moving the clock makes no further events: only retries.
 */
async function oneDelivery(t: TestApp, url: string) {
  await t.api
    .patch('/_emulator/simulator')
    .send({ recording: { mode: 'manual' } })
    .expect(200);
  const webhookId = await registerWebhook(t, url, ['recording.statusUpdate']);
  await startRecording(t.api, (await createMeeting(t.api)).id);
  await t.deps.webhooks.outbox.idle();
  const [d] = (await deliveries(t)).deliveries;
  return { webhookId, delivery: d! };
}

describe('retries on the manual clock', () => {
  it.each([
    [1, [0, 1_000]],
    [3, [0, 1_000, 6_000, 36_000]],
    [5, [0, 1_000, 6_000, 36_000, 156_000, 756_000]],
  ])('a receiver failing %i times is retried at exactly %j ms, with the same dyte-uuid, until its first 2xx', async (failures, times) => {
    const rx = await receiver((i) => (i < failures ? 500 : 200));
    const t = app();
    const { delivery } = await oneDelivery(t, rx.url());
    for (const delay of RETRY_DELAYS_MS.slice(0, failures)) {
      const before = rx.received.length;
      await advanceAndSettle(t, delay - 1);
      expect(rx.received).toHaveLength(before); // not a millisecond early
      await advanceAndSettle(t, 1);
      expect(rx.received).toHaveLength(before + 1);
    }
    const [d] = (await deliveries(t)).deliveries;
    expect(d!.status).toBe('delivered');
    expect(d!.attempts.map((a) => a.at)).toEqual(times.map((ms) => iso(START + ms)));
    expect(d!.attempts.map((a) => a.status_code)).toEqual([...Array(failures).fill(500), 200]);
    expect(new Set(rx.received.map((r) => r.headers['dyte-uuid']))).toEqual(new Set([delivery.id]));
    expect(new Set(rx.received.map((r) => r.raw.toString('base64'))).size).toBe(1);
    // stopped at the first success
    await advanceAndSettle(t, 60 * 60_000);
    expect(rx.received).toHaveLength(failures + 1);
  });

  it('after the fifth retry fails, the delivery is failed and nothing more is sent', async () => {
    const rx = await receiver(() => 503);
    const t = app();
    const { delivery } = await oneDelivery(t, rx.url());
    for (const delay of RETRY_DELAYS_MS) await advanceAndSettle(t, delay);
    expect(rx.received).toHaveLength(6);
    const failed = await deliveries(t, 'status=failed');
    expect(failed.total).toBe(1);
    expect(failed.deliveries[0]).toMatchObject({
      id: delivery.id,
      status: 'failed',
      next_attempt_at: null,
      failure_reason: 'No 2xx answer after 6 attempts (last: Non-2xx answer: HTTP 503)',
    });
    expect(failed.deliveries[0]!.attempts.map((a) => [a.at, a.status_code, a.trigger])).toEqual([
      [iso(START), 503, 'initial'],
      [iso(START + 1_000), 503, 'retry'],
      [iso(START + 6_000), 503, 'retry'],
      [iso(START + 36_000), 503, 'retry'],
      [iso(START + 156_000), 503, 'retry'],
      [iso(START + 756_000), 503, 'retry'],
    ]);
    await advanceAndSettle(t, 24 * 60 * 60_000);
    expect(rx.received).toHaveLength(6);
  });

  it('a connection error (nobody listening) fails the attempt and is retried', async () => {
    const rx = await Receiver.start(); // not tracked: closed right here
    const deadUrl = rx.url('/gone');
    await rx.close();
    const t = app();
    await oneDelivery(t, deadUrl);
    const [d] = (await deliveries(t)).deliveries;
    expect(d).toMatchObject({ status: 'pending', next_attempt_at: iso(START + 1_000) });
    expect(d!.attempts[0]).toMatchObject({ status_code: null, error: expect.stringMatching(/^ECONNREFUSED/) });
  });
});

describe('slow and dead receivers', () => {
  it('no answer within the timeout (50 ms here, 3 s by default) fails the attempt after exactly the timeout and schedules the retry', async () => {
    const rx = await receiver(() => 'hang');
    const t = app({ webhookTimeoutMs: 50 });
    await t.api
      .patch('/_emulator/simulator')
      .send({ recording: { mode: 'manual' } })
      .expect(200);
    await registerWebhook(t, rx.url(), ['recording.statusUpdate']);
    const meetingId = (await createMeeting(t.api)).id;
    // The attempt's timer and the real time it measures (duration_ms) run on one fake timeline:
    // the 50 ms are exact, where a loaded machine could fire a real timer early or late.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      await startRecording(t.api, meetingId);
      while (rx.received.length < 1) await new Promise<void>((resolve) => setImmediate(resolve));
      vi.advanceTimersByTime(50);
      await t.deps.webhooks.outbox.idle();
    } finally {
      vi.useRealTimers();
    }
    const [d] = (await deliveries(t)).deliveries;
    expect(d).toMatchObject({ status: 'pending', next_attempt_at: iso(START + 1_000) });
    expect(d!.attempts).toEqual([{ at: iso(START), status_code: null, error: 'Timed out: no answer within 50 ms', duration_ms: 50, trigger: 'initial' }]);
    expect(rx.received).toHaveLength(1);
    // the retry times out the same way, with the same dyte-uuid
    await advanceAndSettle(t, 1_000);
    expect(rx.received).toHaveLength(2);
    expect(rx.received[1]!.headers['dyte-uuid']).toBe(d!.id);
  });

  it('a receiver that never answers delays neither the API nor another webhook', async () => {
    const dead = await receiver(() => 'hang');
    const alive = await receiver();
    // A long timeout, so that however loaded the machine, the dead receiver is still holding its
    // request when the assertions run; the test ends it by dropping the connections.
    const t = app({ webhookTimeoutMs: 60_000 });
    const deadId = await registerWebhook(t, dead.url('/dead'), ['recording.statusUpdate']);
    await registerWebhook(t, alive.url('/alive'), ['recording.statusUpdate']);
    const meetingId = (await createMeeting(t.api)).id;
    await startRecording(t.api, meetingId);
    // The API answered; the other webhook got its delivery; the dead one still holds its request.
    await Promise.all([dead.waitFor(1), alive.waitFor(1)]);
    const [stuck] = (await deliveries(t, `webhook_id=${deadId}`)).deliveries;
    expect(t.deps.webhooks.outbox.isInFlight(stuck!.id)).toBe(true);
    expect(stuck!.attempts).toEqual([]);
    // More API calls, more events, all while the dead receiver hangs.
    await t.api.get(`/v2/meetings/${meetingId}`).set('Authorization', BASIC).expect(200);
    await startRecording(t.api, (await createMeeting(t.api)).id);
    await alive.waitFor(2);
    const aliveLog = await deliveries(t, 'status=delivered');
    expect(aliveLog.total).toBe(2);
    expect(t.deps.webhooks.outbox.isInFlight(stuck!.id)).toBe(true);
    // The dead receiver's connections drop: its attempts fail and are retried later.
    dead.dropHanging();
    await t.deps.webhooks.outbox.idle();
    const after = await deliveries(t, `webhook_id=${deadId}`);
    expect(after.deliveries.map((d) => d.status)).toEqual(['pending', 'pending']);
    expect(after.deliveries.every((d) => d.attempts.length === 1 && d.attempts[0]!.status_code === null)).toBe(true);
  });
});

describe('who gets nothing', () => {
  it('disabled webhooks and unsubscribed events get nothing', async () => {
    const rx = await receiver();
    const t = app();
    await registerWebhook(t, rx.url('/meetings-only'), ['meeting.started']);
    await registerWebhook(t, rx.url('/disabled'), ['recording.statusUpdate'], { enabled: false });
    const active = await registerWebhook(t, rx.url('/active'), ['recording.statusUpdate']);
    await startRecording(t.api, (await createMeeting(t.api)).id);
    await advanceAndSettle(t, 60_000);
    expect(rx.received.map((r) => r.path)).toEqual(['/active', '/active']);
    const log = await deliveries(t);
    expect(log.deliveries.map((d) => d.webhook_id)).toEqual([active, active]);
  });

  it('disabling or deleting a webhook stops its pending retries', async () => {
    const rx = await receiver(() => 500);
    const t = app();
    const meetingId = (await createMeeting(t.api)).id;
    const toDisable = await registerWebhook(t, rx.url('/a'), ['recording.statusUpdate']);
    const toDelete = await registerWebhook(t, rx.url('/b'), ['recording.statusUpdate']);
    await startRecording(t.api, meetingId);
    await t.deps.webhooks.outbox.idle();
    await t.api.patch(`/v2/webhooks/${toDisable}`).set('Authorization', BASIC).send({ enabled: false }).expect(200);
    await t.api.delete(`/v2/webhooks/${toDelete}`).set('Authorization', BASIC).expect(200);
    await advanceAndSettle(t, 1_000);
    expect(rx.received).toHaveLength(2); // the first attempts only
    const log = await deliveries(t);
    expect(log.deliveries.map((d) => [d.webhook_id, d.status, d.failure_reason, d.attempts.length])).toEqual([
      [toDelete, 'failed', 'The webhook was deleted; no further attempts', 1],
      [toDisable, 'failed', 'The webhook was disabled; no further attempts', 1],
    ]);
  });
});

describe('redeliver', () => {
  it('sends a failed delivery again as a new attempt with the same dyte-uuid, body and signature', async () => {
    const rx = await receiver(() => 500);
    const t = app();
    const { delivery } = await oneDelivery(t, rx.url());
    for (const delay of RETRY_DELAYS_MS) await advanceAndSettle(t, delay);
    expect((await deliveries(t)).deliveries[0]!.status).toBe('failed');
    rx.respond(() => 200);
    await advanceAndSettle(t, 60_000);
    const res = await t.api.post(`/_emulator/webhooks/deliveries/${delivery.id}/redeliver`).expect(200);
    expect(res.body).toMatchObject({ id: delivery.id, status: 'delivered', failure_reason: null, next_attempt_at: null });
    expect(res.body.attempts).toHaveLength(7);
    expect(res.body.attempts[6]).toMatchObject({ at: iso(START + 756_000 + 60_000), status_code: 200, error: null, trigger: 'redeliver' });
    expect(rx.received).toHaveLength(7);
    const first = rx.received[0]!;
    const last = rx.received[6]!;
    expect(last.headers['dyte-uuid']).toBe(delivery.id);
    expect(last.headers['dyte-signature']).toBe(first.headers['dyte-signature']);
    expect(last.raw.equals(first.raw)).toBe(true);
  });

  it('redelivers a delivered one too (a receiver that lost it)', async () => {
    const rx = await receiver();
    const t = app();
    const { delivery } = await oneDelivery(t, rx.url());
    const res = await t.api.post(`/_emulator/webhooks/deliveries/${delivery.id}/redeliver`).expect(200);
    expect(res.body.status).toBe('delivered');
    expect(rx.received.map((r) => r.headers['dyte-uuid'])).toEqual([delivery.id, delivery.id]);
  });

  it('answers 409 while an attempt is in flight', async () => {
    const rx = await receiver(() => 'hang');
    const t = app();
    await registerWebhook(t, rx.url(), ['recording.statusUpdate']);
    await startRecording(t.api, (await createMeeting(t.api)).id);
    await rx.waitFor(1);
    const [d] = (await deliveries(t)).deliveries;
    const res = await t.api.post(`/_emulator/webhooks/deliveries/${d!.id}/redeliver`).expect(409);
    expect(res.body).toEqual({ error: { code: 'DELIVERY_IN_FLIGHT', message: `Delivery ${d!.id} has an attempt in flight; try again once it has finished` } });
    rx.dropHanging();
  });

  it('?wait=true lists once the attempts in flight have finished', async () => {
    const rx = await receiver();
    const t = app();
    await registerWebhook(t, rx.url(), ['recording.statusUpdate']);
    await startRecording(t.api, (await createMeeting(t.api)).id);
    const res = await t.api.get('/_emulator/webhooks/deliveries?wait=true').expect(200);
    expect(res.body.deliveries.map((d: { status: string }) => d.status)).toEqual(['delivered']);
  });
});

describe('?wait=true is bounded by the webhook timeout', () => {
  // The attempts' timers and the wait's own bound run on one fake timeline (only setTimeout,
  // clearTimeout and Date are faked), so each is met exactly however loaded the machine.
  const T = 3_000;
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
  /** Event-loop turns until `done()` or `ms` of real time: the sockets are real, only the timers are fake. */
  async function turnsUntil(done: () => boolean, ms: number): Promise<void> {
    const end = performance.now() + ms;
    while (!done() && performance.now() < end) await turn();
  }
  async function hangingApp() {
    const rx = await receiver(() => 'hang');
    const t = app({ webhookTimeoutMs: T });
    await t.api
      .patch('/_emulator/simulator')
      .send({ recording: { mode: 'manual' } })
      .expect(200);
    await registerWebhook(t, rx.url(), ['recording.statusUpdate']);
    return { rx, t };
  }
  /** GET ?wait=true, sent once the timers are fake; `answered()` tells whether its answer came. */
  async function waitingList(t: TestApp) {
    let answered = false;
    const timers = vi.getTimerCount();
    const listing = t.api
      .get('/_emulator/webhooks/deliveries?wait=true')
      .expect(200)
      .then((res) => {
        answered = true;
        return res.body as { deliveries: Array<{ attempts: Array<{ error: string | null }> }> };
      });
    // The route has started waiting once it has set its bound.
    await turnsUntil(() => vi.getTimerCount() > timers, 10_000);
    return { listing, answered: () => answered };
  }

  it('waits for an attempt that takes the whole timeout, and lists it finished', async () => {
    const { rx, t } = await hangingApp();
    const meetingId = (await createMeeting(t.api)).id;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      await startRecording(t.api, meetingId);
      await turnsUntil(() => rx.received.length > 0, 10_000);
      const { listing, answered } = await waitingList(t);
      vi.advanceTimersByTime(T - 1);
      await turnsUntil(answered, 200);
      vi.advanceTimersByTime(1);
      const body = await listing;
      expect(body.deliveries.map((d) => d.attempts.map((a) => a.error))).toEqual([[`Timed out: no answer within ${T} ms`]]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('answers one second past the timeout while new attempts keep starting, listing those in flight', async () => {
    const { rx, t } = await hangingApp();
    const first = (await createMeeting(t.api)).id;
    const second = (await createMeeting(t.api)).id;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      await startRecording(t.api, first);
      await turnsUntil(() => rx.received.length > 0, 10_000);
      const [firstDelivery] = (await deliveries(t)).deliveries;
      const { listing, answered } = await waitingList(t);
      // Half a second before the first attempt times out, another one starts.
      vi.advanceTimersByTime(T - 500);
      await startRecording(t.api, second);
      await turnsUntil(() => rx.received.length > 1, 10_000);
      // The first attempt times out (and is recorded), then one second passes.
      vi.advanceTimersByTime(500);
      await turnsUntil(() => !t.deps.webhooks.outbox.isInFlight(firstDelivery!.id), 10_000);
      vi.advanceTimersByTime(1_000);
      await turnsUntil(answered, 10_000);
      expect(answered()).toBe(true);
      const body = await listing;
      // newest first: the second attempt is still in flight, the first has timed out
      expect(body.deliveries.map((d) => d.attempts.map((a) => a.error))).toEqual([[], [`Timed out: no answer within ${T} ms`]]);
    } finally {
      // the second attempt's timeout, so that nothing is left in flight
      vi.advanceTimersByTime(T);
      vi.useRealTimers();
    }
  });
});

describe('the bounded log', () => {
  it('stays within --delivery-log-size: delivered records go first; pending ones are never dropped', async () => {
    const rx = await receiver();
    const t = app({ deliveryLogSize: 3 });
    await registerWebhook(t, rx.url(), ['recording.statusUpdate']);
    const recordings: string[] = [];
    for (let i = 0; i < 5; i++) recordings.push((await startRecording(t.api, (await createMeeting(t.api)).id)).id);
    await t.deps.webhooks.outbox.idle();
    const atBound = await deliveries(t);
    expect(atBound.total).toBe(3);
    // The newest three, newest first: those of the last three recordings (the receiver may get the
    // requests, sent at once, in another order than they were made).
    const deliveryOf = (recordingId: string) => rx.received.find((r) => r.raw.toString().includes(recordingId))?.headers['dyte-uuid'];
    expect(atBound.deliveries.map((d) => d.id)).toEqual(recordings.slice(-3).map(deliveryOf).reverse());

    rx.respond(() => 500);
    for (let i = 0; i < 4; i++) await startRecording(t.api, (await createMeeting(t.api)).id);
    await t.deps.webhooks.outbox.idle();
    const overBound = await deliveries(t);
    expect(overBound.deliveries.map((d) => d.status)).toEqual(['pending', 'pending', 'pending', 'pending']);

    // once they end (delivered now), the log is back within its bound
    rx.respond(() => 200);
    await advanceAndSettle(t, 1_000);
    expect((await deliveries(t)).total).toBe(3);
  });
});
