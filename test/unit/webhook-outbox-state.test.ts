// The outbox's state across swaps, restores and trims: a swapped-out transport is closed (the
// same one is kept open), a state saved before deliveries knew their API restores them as v2
// ones, a pending delivery whose retry job was restored first keeps that job, a restored log is
// trimmed like a live one, and a redelivery of a pending delivery replaces its scheduled retry.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { SeededIds } from '../../src/core/ids.js';
import { signingKeyFrom } from '../../src/core/keys.js';
import { Scheduler } from '../../src/core/scheduler.js';
import { Outbox, WEBHOOK_RETRY } from '../../src/webhooks/outbox.js';
import { RecordingTransport } from '../../src/webhooks/recording-transport.js';
import { WebhookSigner } from '../../src/webhooks/signer.js';
import type { TransportResult, WebhookTransport } from '../../src/webhooks/transport.js';

const START = Date.parse('2026-01-01T00:00:00.000Z');
const KEY = signingKeyFrom(new SeededIds('test-seed').rsaKey('webhooks'));
const ORG = '00000000-0000-4000-8000-000000000001';
const WEBHOOK = '00000000-0000-4000-8000-0000000000b1';
const OK: TransportResult = { statusCode: 200, error: null };
const FAIL: TransportResult = { statusCode: 500, error: null };

function setup(options: { status?: () => TransportResult; maxRecords?: number; seed?: string } = {}) {
  const clock = new ManualClock(START);
  const scheduler = new Scheduler(clock);
  const transport = new RecordingTransport(options.status ?? (() => OK));
  const outbox = new Outbox({
    clock,
    scheduler,
    ids: new SeededIds(options.seed ?? 'outbox-state'),
    signer: new WebhookSigner(KEY),
    transport,
    maxRecords: options.maxRecords,
  });
  const enqueue = () =>
    outbox.enqueue({ orgId: ORG, webhookId: WEBHOOK, url: 'http://receiver.test/hook', event: 'meeting.started', payload: { event: 'meeting.started' } });
  return { clock, scheduler, transport, outbox, enqueue };
}

/** A transport that counts how often it was closed. */
function countingTransport(): WebhookTransport & { closed: number } {
  return {
    closed: 0,
    send: () => Promise.resolve(OK),
    close() {
      this.closed += 1;
    },
  };
}

describe('Outbox: swapping the transport', () => {
  it('closes the one it replaces, and not the one it keeps', () => {
    const { outbox } = setup();
    const first = countingTransport();
    const second = countingTransport();
    outbox.useTransport(first);
    outbox.useTransport(first);
    expect(first.closed).toBe(0);
    outbox.useTransport(second);
    expect(first.closed).toBe(1);
    expect(second.closed).toBe(0);
    outbox.close();
    expect(second.closed).toBe(1);
  });

  it('the recording transport forgets its requests on reset, and keeps answering', async () => {
    const { outbox, transport, enqueue } = setup();
    enqueue();
    await outbox.idle();
    expect(transport.requests).toHaveLength(1);
    transport.reset();
    expect(transport.requests).toEqual([]);
    enqueue();
    await outbox.idle();
    expect(transport.requests).toHaveLength(1);
  });
});

describe('Outbox: restore', () => {
  it('a delivery saved without its API (an older state file) is a v2 one, with dyte-* headers', async () => {
    const first = setup({ status: () => FAIL });
    const d = first.enqueue();
    await first.outbox.idle();
    const { api: _api, ...older } = first.outbox.snapshot()[0]!;
    const second = setup();
    second.outbox.restore([older]);
    expect(second.outbox.get(d.id)!.api).toBe('v2');
    second.scheduler.advanceTo(START + 1_000);
    await second.outbox.idle();
    expect(Object.keys(second.transport.requests[0]!.headers)).toEqual(expect.arrayContaining(['dyte-signature', 'dyte-uuid', 'dyte-webhook-id']));
  });

  it('keeps a retry job the scheduler already holds, at its own time, instead of adding one at next_attempt_at', async () => {
    const first = setup({ status: () => FAIL });
    const d = first.enqueue();
    await first.outbox.idle();
    const snapshot = first.outbox.snapshot();
    const second = setup();
    // The scheduler is restored first, as a state import does, with the job moved to 7 s.
    second.scheduler.schedule(WEBHOOK_RETRY, { deliveryId: d.id, orgId: ORG }, START + 7_000);
    second.outbox.restore(snapshot);
    expect(second.scheduler.list().map((j) => j.at)).toEqual([START + 7_000]);
  });

  it('a restored log is trimmed like a live one: past the bound, the oldest delivered record goes first', async () => {
    const first = setup();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push(first.enqueue().id);
      await first.outbox.idle();
    }
    // Another seed: a state import also restores where the ids are, so new ids never repeat old ones.
    const second = setup({ maxRecords: 3, seed: 'outbox-state-2' });
    second.outbox.restore(first.outbox.snapshot());
    expect(second.outbox.size).toBe(3);
    const newest = second.enqueue();
    await second.outbox.idle();
    expect(second.outbox.list().items.map((d) => d.id)).toEqual([newest.id, ids[2], ids[1]]);
  });
});

describe('Outbox: redelivering a pending delivery', () => {
  it('is its next retry brought forward: the scheduled retry is gone, and no second one follows a success', async () => {
    let answer = FAIL;
    const { outbox, scheduler, enqueue } = setup({ status: () => answer });
    const d = enqueue();
    await outbox.idle();
    expect(scheduler.list()).toHaveLength(1);
    answer = OK;
    await outbox.redeliver(d.id);
    expect(d.status).toBe('delivered');
    expect(d.attempts.map((a) => a.trigger)).toEqual(['initial', 'redeliver']);
    expect(scheduler.list()).toEqual([]);
  });
});
