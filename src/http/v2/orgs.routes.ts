// The partner API: organizations (getAllOrgs, createOrg, getOrg, editOrg). Production
// authenticates it with a partner's own bearer token, not an organization's key; the emulator has
// one partner (--partner-token) who owns every organization, the ones the fixtures and the control
// API make included. An organization made here is at once usable on the rest of /v2 with its key.
import type { z } from 'zod';
import { toIso } from '../../core/clock.js';
import type { OrgView } from '../../domain/organizations/organizations.service.js';
import { route } from '../route.js';
import { ok, paged } from './mappers.js';
import { createOrgBody, editOrgBody, orgParams, orgSchema } from './orgs.schemas.js';
import { envelope, pagedEnvelope, pageQuery } from './schemas.js';

function orgDto({ org, profile }: OrgView): z.infer<ReturnType<typeof orgSchema>> {
  return {
    id: org.id,
    name: org.name,
    contact: profile.contact,
    website: profile.website,
    apikey: org.apiKey,
    preferred_region: profile.preferredRegion,
    feature_flags: [...profile.featureFlags],
    created_at: toIso(profile.createdAt),
    updated_at: toIso(profile.updatedAt),
  };
}

const nameTaken = { 409: { description: 'Another organization has that name' } };

export const orgRoutes = [
  route({
    method: 'get',
    path: '/v2/orgs',
    api: 'v2',
    auth: 'partner-bearer',
    tag: 'Organizations',
    summary: 'Fetch all organizations (partner token; in the order they were made)',
    query: pageQuery,
    responses: { 200: { description: 'A page of organizations, with their API keys', schema: () => pagedEnvelope(orgSchema()) } },
    handler: ({ deps, query }) => paged(deps.services.organizations.page({ page: query.page_no, perPage: query.per_page }), orgDto),
  }),
  route({
    method: 'post',
    path: '/v2/orgs',
    api: 'v2',
    auth: 'partner-bearer',
    tag: 'Organizations',
    summary: 'Create an organization with the default presets (partner token); its API key works on /v2 at once',
    body: createOrgBody,
    responses: { 201: { description: 'The organization, with its API key', schema: () => envelope(orgSchema()) }, ...nameTaken },
    handler: ({ deps, body }) =>
      ok(
        orgDto(
          deps.services.organizations.createNamed(body.name, {
            contact: body.contact,
            website: body.website,
            preferredRegion: body.preferred_region,
            featureFlags: body.feature_flags,
          }),
        ),
        201,
      ),
  }),
  route({
    method: 'get',
    path: '/v2/orgs/{org_id}',
    api: 'v2',
    auth: 'partner-bearer',
    tag: 'Organizations',
    summary: 'Fetch an organization (partner token)',
    params: orgParams,
    responses: { 200: { description: 'The organization, with its API key', schema: () => envelope(orgSchema()) } },
    handler: ({ deps, params }) => ok(orgDto(deps.services.organizations.view(params.org_id))),
  }),
  route({
    method: 'patch',
    path: '/v2/orgs/{org_id}',
    api: 'v2',
    auth: 'partner-bearer',
    tag: 'Organizations',
    summary: 'Edit an organization (only the given fields; partner token)',
    params: orgParams,
    body: editOrgBody,
    responses: { 200: { description: 'The organization, with its API key', schema: () => envelope(orgSchema()) }, ...nameTaken },
    handler: ({ deps, params, body }) =>
      ok(
        orgDto(
          deps.services.organizations.edit(params.org_id, {
            name: body.name,
            contact: body.contact,
            website: body.website,
            preferredRegion: body.preferred_region,
            featureFlags: body.feature_flags,
          }),
        ),
      ),
  }),
];
