// Webhook registration (docs/webhooks.md): GET|POST /v2/webhooks, GET|PUT|PATCH|DELETE
// /v2/webhooks/{id}. The wire schemas and the one mapper live here with the routes.
import { z } from 'zod';
import { lazy } from '../../core/lazy.js';
import { toIso } from '../../core/clock.js';
import { WEBHOOK_EVENTS, type Webhook } from '../../domain/models.js';
import type { WebhookInput } from '../../domain/webhooks/webhooks.service.js';
import { callerApi, orgOf } from '../auth.js';
import { LIMITS } from '../limits.js';
import { route } from '../route.js';
import { ok } from './mappers.js';
import { envelope, httpUrl, isoTime, uuidParam } from './schemas.js';

// --- schemas -------------------------------------------------------------------------------

const eventsField = lazy(() =>
  z
    .array(z.enum(WEBHOOK_EVENTS))
    .min(1)
    .max(LIMITS.webhookEventsMax)
    .superRefine((events, ctx) => {
      const seen = new Set<string>();
      events.forEach((e, i) => {
        if (seen.has(e)) ctx.addIssue({ code: 'custom', path: [i], message: 'contains a duplicate value' });
        seen.add(e);
      });
    })
    .meta({ description: `Non-empty, no repeats; any of ${WEBHOOK_EVENTS.join(', ')}` }),
);

const webhookFields = lazy(() => ({
  name: z.string().min(1).max(LIMITS.nameMax),
  url: httpUrl().max(LIMITS.urlMax),
  events: eventsField(),
  enabled: z.boolean().optional(),
}));

/** POST and PUT: name, url and events are required; enabled defaults to true. */
export const webhookBody = lazy(() => z.object(webhookFields()));
/** PATCH: any subset. */
export const webhookPatchBody = lazy(() =>
  z.object({
    name: webhookFields().name.optional(),
    url: webhookFields().url.optional(),
    events: eventsField().optional(),
    enabled: webhookFields().enabled,
  }),
);

export const webhookSchema = lazy(() =>
  z.object({
    id: z.uuid(),
    name: z.string(),
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENTS)),
    enabled: z.boolean(),
    created_at: isoTime(),
    updated_at: isoTime(),
  }),
);

// --- mapper --------------------------------------------------------------------------------

export function webhookDto(w: Webhook): z.infer<ReturnType<typeof webhookSchema>> {
  return {
    id: w.id,
    name: w.name,
    url: w.url,
    events: [...w.events],
    enabled: w.enabled,
    created_at: toIso(w.createdAt),
    updated_at: toIso(w.updatedAt),
  };
}

function toInput(b: z.infer<ReturnType<typeof webhookBody>>): WebhookInput {
  return { name: b.name, url: b.url, events: b.events, enabled: b.enabled };
}

// --- routes --------------------------------------------------------------------------------

const idParams = lazy(() => z.object({ id: uuidParam() }));
const urlTaken = { 409: { description: 'Another webhook of the organization has this url' } };

export const webhookRoutes = [
  route({
    method: 'post',
    path: '/v2/webhooks',
    api: 'v2',
    auth: 'basic',
    tag: 'Webhooks',
    summary: 'Register a webhook',
    description: `At most ${LIMITS.webhooksPerOrganization} webhooks per organization (400 beyond); one webhook per url (409).`,
    body: webhookBody,
    responses: { 201: { description: 'The webhook', schema: () => envelope(webhookSchema()) }, ...urlTaken },
    handler: ({ deps, auth, body }) =>
      ok(webhookDto(deps.services.webhooks.create(orgOf(auth).id, { ...toInput(body), registeredThrough: callerApi(auth) })), 201),
  }),
  route({
    method: 'get',
    path: '/v2/webhooks',
    api: 'v2',
    auth: 'basic',
    tag: 'Webhooks',
    summary: "Fetch all of the organization's webhooks (in creation order, not paged)",
    responses: { 200: { description: 'The webhooks', schema: () => envelope(z.array(webhookSchema())) } },
    handler: ({ deps, auth }) => ok(deps.services.webhooks.list(orgOf(auth).id).map(webhookDto)),
  }),
  route({
    method: 'get',
    path: '/v2/webhooks/{id}',
    api: 'v2',
    auth: 'basic',
    tag: 'Webhooks',
    summary: 'Fetch a webhook',
    params: idParams,
    responses: { 200: { description: 'The webhook', schema: () => envelope(webhookSchema()) } },
    handler: ({ deps, auth, params }) => ok(webhookDto(deps.services.webhooks.get(orgOf(auth).id, params.id))),
  }),
  route({
    method: 'put',
    path: '/v2/webhooks/{id}',
    api: 'v2',
    auth: 'basic',
    tag: 'Webhooks',
    summary: 'Replace a webhook (name, url and events required; enabled back to true when absent)',
    params: idParams,
    body: webhookBody,
    responses: { 200: { description: 'The replaced webhook', schema: () => envelope(webhookSchema()) }, ...urlTaken },
    handler: ({ deps, auth, params, body }) => ok(webhookDto(deps.services.webhooks.replace(orgOf(auth).id, params.id, toInput(body)))),
  }),
  route({
    method: 'patch',
    path: '/v2/webhooks/{id}',
    api: 'v2',
    auth: 'basic',
    tag: 'Webhooks',
    summary: 'Update a webhook (only the given fields)',
    params: idParams,
    body: webhookPatchBody,
    responses: { 200: { description: 'The updated webhook', schema: () => envelope(webhookSchema()) }, ...urlTaken },
    handler: ({ deps, auth, params, body }) => ok(webhookDto(deps.services.webhooks.update(orgOf(auth).id, params.id, body))),
  }),
  route({
    method: 'delete',
    path: '/v2/webhooks/{id}',
    api: 'v2',
    auth: 'basic',
    tag: 'Webhooks',
    summary: 'Delete a webhook; answers the deleted webhook',
    params: idParams,
    responses: { 200: { description: 'The deleted webhook', schema: () => envelope(webhookSchema()) } },
    handler: ({ deps, auth, params }) => ok(webhookDto(deps.services.webhooks.remove(orgOf(auth).id, params.id))),
  }),
];
