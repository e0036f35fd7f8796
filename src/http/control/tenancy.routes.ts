// Control API: organizations for isolation between test workers, and resets.
import { z } from 'zod';
import { errors } from '../../core/errors.js';
import { route } from '../route.js';

const createdOrgSchema = z.object({ id: z.uuid(), name: z.string(), api_key: z.string() });
const orgSchema = z.object({ id: z.uuid(), name: z.string() });

export const tenancyRoutes = [
  route({
    method: 'post',
    path: '/_emulator/orgs',
    api: 'control',
    auth: 'none',
    tag: 'Control: tenancy',
    summary: 'Create an organization with the default presets (one per test worker); the answer is the only place its API key is shown',
    body: z.object({ name: z.string().min(1).max(200).optional() }),
    responses: { 201: { description: 'The organization with its API key', schema: createdOrgSchema } },
    handler: ({ deps, body }) => {
      const org = deps.services.organizations.create(body.name);
      return { status: 201, body: { id: org.id, name: org.name, api_key: org.apiKey } };
    },
  }),
  route({
    method: 'get',
    path: '/_emulator/orgs',
    api: 'control',
    auth: 'none',
    tag: 'Control: tenancy',
    summary: 'List organizations (without their API keys)',
    responses: { 200: { description: 'Organizations', schema: z.array(orgSchema) } },
    handler: ({ deps }) => ({ status: 200, body: deps.services.organizations.list().map((o) => ({ id: o.id, name: o.name })) }),
  }),
  route({
    method: 'post',
    path: '/_emulator/orgs/{id}/reset',
    api: 'control',
    auth: 'none',
    tag: 'Control: tenancy',
    summary: 'Return one organization to its fixture state (a created one to empty); other organizations are untouched',
    params: z.object({ id: z.uuid() }),
    responses: { 200: { description: 'The organization', schema: orgSchema } },
    handler: ({ deps, params }) => {
      const org = deps.services.organizations.reset(params.id);
      if (!org) throw errors.notFound('organization', params.id);
      return { status: 200, body: { id: org.id, name: org.name } };
    },
  }),
  route({
    method: 'post',
    path: '/_emulator/reset',
    api: 'control',
    auth: 'none',
    tag: 'Control: tenancy',
    summary: 'Return everything to the fixtures: organizations, resources, clock, ids, jobs, deliveries, journal, faults',
    responses: { 200: { description: 'Reset done', schema: z.object({ status: z.literal('reset') }) } },
    handler: ({ deps }) => {
      deps.reset();
      return { status: 200, body: { status: 'reset' as const } };
    },
  }),
];
