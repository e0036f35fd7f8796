// Control API: the request journal and fault rules.
import { z } from 'zod';
import { lazy } from '../../core/lazy.js';
import { route } from '../route.js';

const journalEntrySchema = lazy(() =>
  z.object({
    id: z.string(),
    at: z.string(),
    method: z.string(),
    path: z.string(),
    query: z.looseObject({}),
    status: z.number().int(),
    duration_ms: z.number(),
    org_id: z.string().nullable(),
    account_id: z.string().nullable().meta({ description: 'RealtimeKit requests: the account named in the path' }),
    app_id: z.string().nullable().meta({ description: 'RealtimeKit requests: the app (organization) named in the path' }),
    body: z.unknown(),
    deliveries: z.array(z.string()),
    upload: z
      .object({
        recording_id: z.string(),
        storage_type: z.string(),
        file: z.string(),
        bytes: z.number().int(),
        outcome: z.enum(['uploaded', 'failed']),
        error: z.string().nullable(),
      })
      .optional()
      .meta({
        description:
          "The emulator's own upload of a recording's file to an app's storage (method PUT, path where it went, status the storage's HTTP answer, 0 when none came or for SFTP)",
      }),
  }),
);

const faultRuleSchema = lazy(() =>
  z.object({
    id: z.string(),
    method: z.string().nullable(),
    path: z.string(),
    status: z.number().int().nullable(),
    delay_ms: z.number().int(),
    drop: z.boolean(),
    remaining: z.number().int(),
    matched: z.number().int(),
  }),
);

const faultBody = lazy(() =>
  z
    .object({
      method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'get', 'post', 'put', 'patch', 'delete']).optional(),
      path: z.string().min(1).max(1024).regex(/^\//, 'must start with "/"'),
      status: z.number().int().min(400).max(599).optional(),
      delay_ms: z.number().int().min(0).max(60_000).optional(),
      drop: z.boolean().optional(),
      count: z.number().int().min(1).max(1_000_000).optional(),
    })
    .refine((b) => b.status !== undefined || b.delay_ms !== undefined || b.drop === true, {
      message: 'needs at least one of status, delay_ms or drop',
      path: ['status'],
    }),
);

export const observabilityRoutes = [
  route({
    method: 'get',
    path: '/_emulator/requests',
    api: 'control',
    auth: 'none',
    tag: 'Control: journal',
    summary: 'The request journal, newest first (bounded; Authorization values and secrets are never recorded)',
    query: () =>
      z.object({
        method: z.string().max(10).optional(),
        path_prefix: z.string().max(1024).optional(),
        status: z.coerce.number().int().min(0).max(599).optional(),
        limit: z.coerce.number().int().min(1).max(1_000_000).optional(),
      }),
    responses: { 200: { description: 'Journal entries', schema: () => z.array(journalEntrySchema()) } },
    handler: ({ deps, query }) => ({
      status: 200,
      body: deps.journal.list({ method: query.method?.toUpperCase(), pathPrefix: query.path_prefix, status: query.status }, query.limit),
    }),
  }),
  route({
    method: 'delete',
    path: '/_emulator/requests',
    api: 'control',
    auth: 'none',
    tag: 'Control: journal',
    summary: 'Clear the request journal',
    responses: { 204: { description: 'Cleared' } },
    handler: ({ deps }) => {
      deps.journal.clear();
      return { status: 204 };
    },
  }),
  route({
    method: 'post',
    path: '/_emulator/faults',
    api: 'control',
    auth: 'none',
    tag: 'Control: faults',
    summary:
      'Add a fault rule: matching API requests answer `status` in the API’s own error shape, wait `delay_ms`, or lose their connection (`drop`), `count` times (default 1)',
    body: faultBody,
    responses: { 201: { description: 'The rule', schema: () => faultRuleSchema() } },
    handler: ({ deps, body }) => ({ status: 201, body: deps.faults.add(body) }),
  }),
  route({
    method: 'get',
    path: '/_emulator/faults',
    api: 'control',
    auth: 'none',
    tag: 'Control: faults',
    summary: 'The fault rules still armed',
    responses: { 200: { description: 'Rules', schema: () => z.array(faultRuleSchema()) } },
    handler: ({ deps }) => ({ status: 200, body: deps.faults.list() }),
  }),
  route({
    method: 'delete',
    path: '/_emulator/faults',
    api: 'control',
    auth: 'none',
    tag: 'Control: faults',
    summary: 'Clear every fault rule',
    responses: { 204: { description: 'Cleared' } },
    handler: ({ deps }) => {
      deps.faults.clear();
      return { status: 204 };
    },
  }),
];
