// A webhook delivery as the control API shows it, and as startEmulator().deliveries() returns it.
// Apart from the routes, so that the package's public types reach no express types through it.
import { z } from 'zod';
import { lazy } from '../../core/lazy.js';
import { isoOrNull, toIso } from '../../core/clock.js';
import { WEBHOOK_EVENTS } from '../../domain/models.js';
import { DELIVERY_STATUSES, type Delivery, type DeliveryAttempt, type DeliveryStatus } from '../../webhooks/outbox.js';

const isoTime = lazy(() => z.string().meta({ format: 'date-time' }));

export const deliverySchema = lazy(() =>
  z.object({
    id: z.uuid().meta({ description: 'The dyte-uuid header of every attempt' }),
    org_id: z.string().nullable(),
    webhook_id: z.string(),
    event: z.enum(WEBHOOK_EVENTS),
    url: z.string(),
    payload: z.unknown(),
    status: z.enum(DELIVERY_STATUSES as [DeliveryStatus, ...DeliveryStatus[]]),
    attempts: z.array(
      z.object({
        at: isoTime(),
        status_code: z.number().int().nullable(),
        error: z.string().nullable(),
        duration_ms: z.number().int(),
        trigger: z.enum(['initial', 'retry', 'redeliver']),
      }),
    ),
    next_attempt_at: isoTime().nullable(),
    failure_reason: z.string().nullable(),
    note: z.string().nullable().meta({ description: 'What the event was about that its payload cannot say: why a recording ERRORED; null otherwise' }),
    created_at: isoTime(),
  }),
);

export function deliveryDto(d: Delivery): z.infer<ReturnType<typeof deliverySchema>> {
  return {
    id: d.id,
    org_id: d.orgId,
    webhook_id: d.webhookId,
    event: d.event,
    url: d.url,
    payload: JSON.parse(d.body) as unknown,
    status: d.status,
    attempts: d.attempts.map(attemptDto),
    next_attempt_at: isoOrNull(d.nextAttemptAt),
    failure_reason: d.failureReason,
    note: d.note,
    created_at: toIso(d.createdAt),
  };
}

/** One attempt as the control API and the live feed show it. */
export function attemptDto(a: DeliveryAttempt) {
  return { at: toIso(a.at), status_code: a.statusCode, error: a.error, duration_ms: Math.round(a.durationMs), trigger: a.trigger };
}
