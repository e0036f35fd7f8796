// What the outbox tells the emulator's log, and where a 2xx ends: the log lines an operator reads
// to follow a delivery (one per attempt, one when a disabled webhook stops it, one when it gives up
// after its retries, one when an attempt crashes), and the status codes that count as delivered
// (200 to 299, nothing else).
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { SeededIds } from '../../src/core/ids.js';
import { signingKeyFrom } from '../../src/core/keys.js';
import { Scheduler } from '../../src/core/scheduler.js';
import type { Logger } from '../../src/logger.js';
import { Outbox, type DeliveryTarget } from '../../src/webhooks/outbox.js';
import { RecordingTransport } from '../../src/webhooks/recording-transport.js';
import { WebhookSigner } from '../../src/webhooks/signer.js';
import type { WebhookTransport } from '../../src/webhooks/transport.js';
import { RETRY_DELAYS_MS } from '../helpers/documented.js';

const START = Date.parse('2026-01-01T00:00:00.000Z');
const KEY = signingKeyFrom(new SeededIds('test-seed').rsaKey('webhooks'));
const ORG = '00000000-0000-4000-8000-000000000001';
const WEBHOOK = '00000000-0000-4000-8000-0000000000b1';

interface Line {
  level: string;
  fields: Record<string, unknown>;
  msg: string;
}

/** A logger that keeps what it is given, with the level it was given at. */
function captureLog() {
  const lines: Line[] = [];
  const at = (level: string) => (fields: Record<string, unknown>, msg: string) => lines.push({ level, fields, msg });
  const logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } as unknown as Logger;
  return { lines, logger };
}

function setup(
  statusCode: number,
  target: () => DeliveryTarget = () => ({ url: 'http://receiver.test/hook' }),
  transport: WebhookTransport = new RecordingTransport(() => ({ statusCode, error: null })),
) {
  const clock = new ManualClock(START);
  const scheduler = new Scheduler(clock);
  const { lines, logger } = captureLog();
  const outbox = new Outbox({
    clock,
    scheduler,
    ids: new SeededIds('outbox-log'),
    signer: new WebhookSigner(KEY),
    transport,
    logger,
    resolveTarget: target,
  });
  const delivery = outbox.enqueue({
    orgId: ORG,
    webhookId: WEBHOOK,
    url: 'http://receiver.test/hook',
    event: 'meeting.started',
    payload: { event: 'meeting.started' },
  });
  const advance = async (ms: number) => {
    scheduler.advanceTo(clock.now() + ms);
    await outbox.idle();
  };
  return { outbox, delivery, lines, advance };
}

describe('Outbox: where a 2xx ends', () => {
  it.each([
    [199, 'pending'],
    [200, 'delivered'],
    [204, 'delivered'],
    [299, 'delivered'],
    [300, 'pending'],
    [304, 'pending'],
  ])('an answer %i leaves the delivery %s', async (statusCode, status) => {
    const { outbox, delivery } = setup(statusCode);
    await outbox.idle();
    expect(delivery.status).toBe(status);
    expect(delivery.attempts[0]!.error).toBe(status === 'delivered' ? null : `Non-2xx answer: HTTP ${statusCode}`);
  });
});

describe('Outbox: its log', () => {
  it('logs each attempt at debug level, with the delivery, webhook, event, status and trigger', async () => {
    const { outbox, delivery, lines } = setup(200);
    await outbox.idle();
    expect(lines).toEqual([
      {
        level: 'debug',
        msg: 'webhook attempt',
        fields: { deliveryId: delivery.id, webhookId: WEBHOOK, event: 'meeting.started', statusCode: 200, error: null, trigger: 'initial' },
      },
    ]);
  });

  it('warns once when a delivery gives up after its retries', async () => {
    const { outbox, delivery, lines, advance } = setup(500);
    await outbox.idle();
    for (const delay of RETRY_DELAYS_MS) await advance(delay);
    expect(delivery.status).toBe('failed');
    expect(lines.filter((l) => l.level === 'debug').map((l) => l.fields.trigger)).toEqual(['initial', 'retry', 'retry', 'retry', 'retry', 'retry']);
    expect(lines.filter((l) => l.level !== 'debug')).toEqual([
      { level: 'warn', msg: 'webhook delivery failed after its retries', fields: { deliveryId: delivery.id, webhookId: WEBHOOK, event: 'meeting.started' } },
    ]);
  });

  it('says why at info level when a disabled or deleted webhook stops a delivery', async () => {
    const reason = 'The webhook was disabled; no further attempts';
    const { outbox, delivery, lines } = setup(200, () => ({ stop: reason }));
    await outbox.idle();
    expect(delivery.status).toBe('failed');
    expect(lines).toEqual([
      { level: 'info', msg: 'webhook delivery stopped', fields: { deliveryId: delivery.id, webhookId: WEBHOOK, event: 'meeting.started', reason } },
    ]);
  });

  // A reset in the same turn as the event that made the delivery (in-process use) drops it before
  // its first attempt starts; here its webhook is gone too. Nothing is sent, nothing is stopped.
  it('says nothing about a delivery that a reset dropped before its first attempt started', async () => {
    const { outbox, lines } = setup(200, () => ({ stop: 'The webhook was deleted; no further attempts' }));
    outbox.reset();
    await outbox.idle();
    expect(lines).toEqual([]);
  });

  it('logs an attempt that crashed at error level, with the error and the delivery (here a scripted transport that throws)', async () => {
    const failure = new Error('the scripted answer could not be made');
    const crashing = new RecordingTransport(() => {
      throw failure;
    });
    const { outbox, delivery, lines } = setup(200, undefined, crashing);
    await outbox.idle();
    expect(lines).toEqual([{ level: 'error', msg: 'webhook attempt crashed', fields: { err: failure, deliveryId: delivery.id } }]);
  });
});
