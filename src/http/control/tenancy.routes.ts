// Control API: organizations for isolation between test workers, and resets.
import { z } from 'zod';
import { lazy } from '../../core/lazy.js';
import { errors } from '../../core/errors.js';
import { route } from '../route.js';

/** account_id: the RealtimeKit account the organization is an app of. */
const createdOrgSchema = lazy(() => z.object({ id: z.uuid(), name: z.string(), api_key: z.string(), account_id: z.string() }));
const orgSchema = lazy(() => z.object({ id: z.uuid(), name: z.string(), account_id: z.string() }));

export const tenancyRoutes = [
  route({
    method: 'post',
    path: '/_emulator/orgs',
    api: 'control',
    auth: 'none',
    tag: 'Control: tenancy',
    summary:
      'Create an organization with the default presets (one per test worker), an app of the account given (else the default account); the answer is the only place its API key is shown',
    body: () =>
      z.object({
        name: z.string().min(1).max(200).optional(),
        account_id: z
          .string()
          .regex(/^[0-9a-f]{32}$/, 'must be 32 lower-case hex digits')
          .optional(),
      }),
    responses: {
      201: { description: 'The organization with its API key', schema: () => createdOrgSchema() },
      404: { description: 'No account with that id' },
    },
    handler: ({ deps, body }) => {
      const { org, accountId } = deps.services.accounts.createApp(body.name, body.account_id);
      return { status: 201, body: { id: org.id, name: org.name, api_key: org.apiKey, account_id: accountId } };
    },
  }),
  route({
    method: 'get',
    path: '/_emulator/orgs',
    api: 'control',
    auth: 'none',
    tag: 'Control: tenancy',
    summary: 'List organizations (without their API keys), with the account each belongs to',
    responses: { 200: { description: 'Organizations', schema: () => z.array(orgSchema()) } },
    handler: ({ deps }) => ({
      status: 200,
      body: deps.services.organizations.list().map((o) => ({ id: o.id, name: o.name, account_id: deps.services.accounts.accountOf(o.id) })),
    }),
  }),
  route({
    method: 'post',
    path: '/_emulator/orgs/{id}/reset',
    api: 'control',
    auth: 'none',
    tag: 'Control: tenancy',
    summary: 'Return one organization to its fixture state (a created one to empty); other organizations are untouched',
    params: () => z.object({ id: z.uuid() }),
    responses: { 200: { description: 'The organization', schema: () => orgSchema() } },
    handler: ({ deps, params }) => {
      const org = deps.services.organizations.reset(params.id);
      if (!org) throw errors.notFound('organization', params.id);
      return { status: 200, body: { id: org.id, name: org.name, account_id: deps.services.accounts.accountOf(org.id) } };
    },
  }),
  route({
    method: 'post',
    path: '/_emulator/reset',
    api: 'control',
    auth: 'none',
    tag: 'Control: tenancy',
    summary: 'Return everything to the fixtures: organizations, resources, clock, ids, jobs, deliveries, journal, faults',
    responses: { 200: { description: 'Reset done', schema: () => z.object({ status: z.literal('reset') }) } },
    handler: ({ deps }) => {
      deps.reset();
      return { status: 200, body: { status: 'reset' as const } };
    },
  }),
];
