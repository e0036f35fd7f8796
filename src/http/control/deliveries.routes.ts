// The webhook delivery log (control API) and the public key receivers verify signatures with.
//   GET  /_emulator/webhooks/deliveries                 newest first; filters; ?wait=true
//   GET  /_emulator/webhooks/deliveries/{id}
//   POST /_emulator/webhooks/deliveries/{id}/redeliver   one attempt now; answers once it ended
//   GET  /.well-known/webhooks.json                     {public_key, keys}
import { z } from 'zod';
import { lazy } from '../../core/lazy.js';
import { errors } from '../../core/errors.js';
import type { Deps } from '../../container.js';
import { WEBHOOK_EVENTS } from '../../domain/models.js';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../../webhooks/outbox.js';
import { deliveryDto, deliverySchema } from './delivery-view.js';
import { LIMITS } from '../limits.js';
import { route } from '../route.js';

const deliveryListSchema = lazy(() => z.object({ deliveries: z.array(deliverySchema()), total: z.number().int() }));

const listQuery = lazy(() =>
  z.object({
    webhook_id: z.string().min(1).max(64).optional(),
    event: z.enum(WEBHOOK_EVENTS).optional(),
    status: z.enum(DELIVERY_STATUSES as [DeliveryStatus, ...DeliveryStatus[]]).optional(),
    org_id: z.string().min(1).max(64).optional(),
    limit: z.coerce.number().int().min(1).max(LIMITS.deliveriesPerPageMax).default(100),
    wait: z.enum(['true', 'false']).optional().meta({ description: 'true: first wait until no attempt is in flight (bounded by the webhook timeout)' }),
  }),
);

/** Waits for in-flight attempts, but never longer than one attempt can take, plus a margin. */
async function settle(deps: Deps): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const cap = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, deps.webhooks.outbox.timeoutMs + 1_000);
  });
  await Promise.race([deps.webhooks.outbox.idle(), cap]);
  clearTimeout(timer);
}

const idParams = lazy(() => z.object({ id: z.uuid() }));

export const deliveryRoutes = [
  route({
    method: 'get',
    path: '/_emulator/webhooks/deliveries',
    api: 'control',
    auth: 'none',
    tag: 'Control: webhooks',
    summary: 'The webhook delivery log, newest first (filters webhook_id, event, status, org_id)',
    description: 'Bounded (--delivery-log-size): delivered records go first, then failed ones; pending records are never dropped.',
    query: listQuery,
    responses: { 200: { description: 'Deliveries and how many match the filters', schema: () => deliveryListSchema() } },
    handler: async ({ deps, query }) => {
      if (query.wait === 'true') await settle(deps);
      const { items, total } = deps.webhooks.outbox.list(
        { webhookId: query.webhook_id, event: query.event, status: query.status, orgId: query.org_id },
        query.limit,
      );
      return { status: 200, body: { deliveries: items.map(deliveryDto), total } };
    },
  }),
  route({
    method: 'get',
    path: '/_emulator/webhooks/deliveries/{id}',
    api: 'control',
    auth: 'none',
    tag: 'Control: webhooks',
    summary: 'One delivery with its attempts',
    params: idParams,
    responses: { 200: { description: 'The delivery', schema: () => deliverySchema() } },
    handler: ({ deps, params }) => {
      const d = deps.webhooks.outbox.get(params.id);
      if (!d) throw errors.notFound('delivery', params.id);
      return { status: 200, body: deliveryDto(d) };
    },
  }),
  route({
    method: 'post',
    path: '/_emulator/webhooks/deliveries/{id}/redeliver',
    api: 'control',
    auth: 'none',
    tag: 'Control: webhooks',
    summary: 'Send a delivery again now, as a new attempt with the same dyte-uuid; answers once the attempt ended',
    description:
      'Delivered or failed: one extra attempt whose outcome becomes the status. Pending: its next retry, brought forward. 409 while an attempt is in flight.',
    params: idParams,
    responses: {
      200: { description: 'The delivery with the new attempt', schema: () => deliverySchema() },
      409: { description: 'An attempt of this delivery is in flight' },
    },
    handler: async ({ deps, params }) => ({ status: 200, body: deliveryDto(await deps.webhooks.outbox.redeliver(params.id)) }),
  }),
  route({
    method: 'get',
    path: '/.well-known/webhooks.json',
    api: 'control',
    auth: 'none',
    tag: 'Discovery',
    summary: 'The public key that verifies dyte-signature (RSA-SHA256 over the raw body), as SPKI PEM and JWK',
    responses: {
      200: {
        description: 'The webhook signing key',
        schema: () =>
          z.object({
            public_key: z.string(),
            keys: z.array(z.object({ kty: z.literal('RSA'), n: z.string(), e: z.string(), kid: z.string(), alg: z.literal('RS256'), use: z.literal('sig') })),
          }),
      },
    },
    handler: ({ deps }) => ({ status: 200, body: deps.webhooks.signer.document() }),
  }),
];
